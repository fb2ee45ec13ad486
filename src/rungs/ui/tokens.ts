/** Counts tokens as a model's tokenizer does: o200k, the encoding of current OpenAI models. */
export type TokenCounter = (text: string) => number;

let loading: Promise<TokenCounter> | undefined;

/**
 * The o200k counter, loaded on first use (its ranks are a few megabytes): characters / 4
 * undercounts real pages by about 40 %, enough to let a page pass a cap it is far over.
 */
export function tokenCounter(): Promise<TokenCounter> {
  loading ??= (async () => {
    const [{ Tiktoken }, { default: ranks }] = await Promise.all([
      import('js-tiktoken/lite'),
      import('js-tiktoken/ranks/o200k_base'),
    ]);
    const encoder = new Tiktoken(ranks);
    return (text: string) => encoder.encode(text).length;
  })();
  return loading;
}
