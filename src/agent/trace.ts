import { formatCount } from '../model/tokens.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** `name(key="value", n=3)`, cut to a readable length. */
export function describeCall(name: string, input: unknown, max = 160): string {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    return shorten(`${name}(${JSON.stringify(input) ?? ''})`, max);
  const args = Object.entries(input as Record<string, unknown>)
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
    .join(', ');
  return shorten(`${name}(${args})`, max);
}

/** `model  1.4 s  in 1,384 tok  -> tool(args)` */
export function modelLine(entry: {
  durationMs: number;
  inputTokens: number;
  calls: Array<{ name: string; input: unknown }>;
  requests: number;
  retries: number;
  hedged: boolean;
}): string {
  const target =
    entry.calls.length === 0
      ? 'reply'
      : entry.calls.map((call) => describeCall(call.name, call.input)).join(', ');
  const notes: string[] = [];
  if (entry.retries > 0) notes.push(`${entry.retries} ${entry.retries === 1 ? 'retry' : 'retries'}`);
  if (entry.hedged) notes.push('hedged');
  const extra = notes.length > 0 ? `   (${entry.requests} requests: ${notes.join(', ')})` : '';
  return `model ${seconds(entry.durationMs).padStart(7)}  ${`in ${formatCount(entry.inputTokens)} tok`.padEnd(15)} -> ${target}${extra}`;
}

/** `tool   0.6 s                  <- ok, 2/2 checks` */
export function toolLine(durationMs: number | undefined, outcome: string): string {
  const time = durationMs === undefined ? '' : seconds(durationMs);
  return `tool  ${time.padStart(7)}  ${''.padEnd(15)} <- ${outcome}`;
}

/** `total  2.9 s, 2 model calls, 1 tool call, 3,115 input tokens, 2/2 checks` */
export function totalLine(entry: {
  seconds: number;
  modelCalls: number;
  toolCalls: number;
  inputTokens: number;
  checksPassed: number;
  checksTotal: number;
}): string {
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const checks = entry.checksTotal > 0 ? `, ${entry.checksPassed}/${entry.checksTotal} checks` : '';
  return `total ${entry.seconds.toFixed(1)} s, ${plural(entry.modelCalls, 'model call')}, ${plural(entry.toolCalls, 'tool call')}, ${formatCount(entry.inputTokens)} input tokens${checks}`;
}
