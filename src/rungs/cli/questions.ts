import type { TextPattern } from '../../contract/pattern.js';

/** How the wrapper reads a question a program asked, decided in code, never by a model. */

/** A question the contract knows, and the answer the wrapper writes once after the gate approved. */
export interface Confirmation {
  /** A RegExp in the tool's code, or an operator's pattern compiled by linearPattern. */
  pattern: TextPattern;
  answer: string;
}

/** Questions for a secret. These never reach a model; they end the call with AUTH_REQUIRED. */
const CREDENTIAL =
  /pass(word|phrase|code)|user ?name|login|token|\bpin\b|secret|api[ _-]?key|one[- ]time|verification code|credential|\botp\b|enter (the |your )?(key|code)/i;

/** Endings that mark a partial line as a question waiting for a person. */
const QUESTION_ENDING = /(\?|:|>|\]|\))\s*$/;
const QUESTION_WORDS =
  /\[(y\/n|y\/N|Y\/n|yes\/no)\]|\((y\/n|yes\/no)\)|continue|proceed|are you sure|press (enter|return|any key)|--more--/i;

/** The last line of what the program printed, trimmed and bounded, to show as the question. */
export function lastLine(text: string): string {
  const lines = text.replace(/\r/g, '\n').split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index]?.trim();
    if (line) return line.length > 240 ? `…${line.slice(-240)}` : line;
  }
  return '';
}

/** The partial line after the last newline, when output stopped mid-line. */
export function partialLine(text: string): string {
  const index = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  return text.slice(index + 1);
}

export function isCredentialQuestion(question: string): boolean {
  return CREDENTIAL.test(question);
}

/** A partial line that reads like a question to a person (used when no read of stdin is seen). */
export function looksLikeQuestion(partial: string): boolean {
  const line = partial.trim();
  if (!line) return false;
  return (
    QUESTION_WORDS.test(line) ||
    (QUESTION_ENDING.test(line) && (CREDENTIAL.test(line) || /\?\s*$/.test(line)))
  );
}

export type QuestionVerdict =
  | { kind: 'credential' }
  | { kind: 'confirmation'; confirmation: Confirmation; index: number }
  | { kind: 'unexpected' };

export function classifyQuestion(question: string, confirmations: readonly Confirmation[]): QuestionVerdict {
  if (isCredentialQuestion(question)) return { kind: 'credential' };
  const index = confirmations.findIndex((confirmation) => confirmation.pattern.test(question));
  const confirmation = confirmations[index];
  if (confirmation) return { kind: 'confirmation', confirmation, index };
  return { kind: 'unexpected' };
}
