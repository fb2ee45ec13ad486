/**
 * A rough token count for text the provider did not count for us (schemas, envelopes): about four
 * characters a token for English and JSON, the usual rule of thumb for BPE tokenizers.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** 1,384 */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
