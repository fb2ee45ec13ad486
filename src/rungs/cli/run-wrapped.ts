import type { WrappedCall, WrappedResult } from './wrapped-call.js';

export { DEFAULT_STREAM_CAP, type WrappedCall, type WrappedResult } from './wrapped-call.js';

/**
 * Runs a program built for a person so that it cannot hang: no terminal, its own session
 * and process group, standard input owned and watched by the wrapper, one deadline, every
 * ending named. Resolves on success; throws LiftError for every other ending.
 *
 * The machinery (call marks, capture, the prompt watch, termination: wrapped-process.ts)
 * loads with the first program a call runs, so declaring a tool over a program costs nothing.
 */
export async function runWrapped(call: WrappedCall): Promise<WrappedResult> {
  return (await import('./wrapped-process.js')).runWrapped(call);
}
