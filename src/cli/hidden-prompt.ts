import { StringDecoder } from 'node:string_decoder';

/** A terminal's standard input, as Node gives it (process.stdin when it is a TTY). */
export interface TerminalInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(raw: boolean): unknown;
}

/** Thrown when the person pressed Ctrl-C at the prompt: nothing is stored. */
export class PromptCancelled extends Error {
  override readonly name = 'PromptCancelled';
}

const ENTER = new Set(['\r', '\n']);
const ERASE = new Set(['\u007f', '\b']);
const CANCEL = '\u0003';
const END = '\u0004';

/**
 * Asks for a value at a terminal without echoing it: the terminal is put in raw mode, so it
 * shows nothing of what is typed or pasted, and the value ends at Enter (Backspace takes back
 * a character, Ctrl-C cancels). The prompt is one line on standard error; the terminal is
 * always put back as it was.
 */
export function readHidden(
  input: TerminalInput,
  prompt: string,
  write: (text: string) => void,
): Promise<string> {
  if (!input.setRawMode) throw new Error('Standard input is not a terminal that can hide what is typed.');
  const setRawMode = input.setRawMode.bind(input);
  write(prompt);
  setRawMode(true);
  input.resume();
  const decoder = new StringDecoder('utf8');
  let value = '';
  return new Promise<string>((resolve, reject) => {
    const finish = (error?: Error) => {
      input.off('data', onData);
      setRawMode(false);
      input.pause();
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of decoder.write(Buffer.from(chunk))) {
        if (ENTER.has(char) || char === END) return finish();
        if (char === CANCEL) return finish(new PromptCancelled('Cancelled; nothing was stored.'));
        if (ERASE.has(char)) value = [...value].slice(0, -1).join('');
        else if (char >= ' ') value += char;
      }
    };
    input.on('data', onData);
  });
}
