import type { CliIo } from './io.js';

/** LIFT_LOG=debug: one line on stderr for each thing lift does on its way to the command. */
export function debugLog(io: CliIo): (message: string) => void {
  if (io.env.LIFT_LOG !== 'debug') return () => {};
  // Seconds since the process started, so lines from different places line up.
  return (message) => io.err(`lift debug ${(performance.now() / 1000).toFixed(3)} s  ${message}`);
}
