import { z } from 'zod';
import { defineTool } from '../../contract/define-tool.js';
import { MAX_DEADLINE_MS } from '../../contract/duration.js';
import type { Confirmation } from './questions.js';
import { DEFAULT_STREAM_CAP, runWrapped } from './run-wrapped.js';

/** What `lift exec` decides on its command line: the deadline, the answers, the cap, the search path. */
export interface ExecSettings {
  deadlineSeconds: number;
  /** `REGEX=>ANSWER` pairs given by whoever ran `lift exec` (patterns from linearPattern); giving them is the approval. */
  confirmations: Confirmation[];
  capBytes: number;
  path: string | undefined;
  home: string | undefined;
  cwd: string;
}

export const DEFAULT_EXEC_DEADLINE_SECONDS = 60;
/** Bytes kept of each stream at most (--cap): the envelope holds both streams in memory. */
export const MAX_EXEC_CAP_BYTES = 64 * 1024 * 1024;
export { DEFAULT_STREAM_CAP as DEFAULT_EXEC_CAP_BYTES };

const ExecInput = z.strictObject({
  program: z.string().min(1).max(4_096),
  args: z.array(z.string().max(65_536)).max(1_000),
});

const ExecOutput = z.object({
  exit_code: z.number().int(),
  stdout: z.string(),
  stderr: z.string(),
  stdout_bytes: z.number().int(),
  stderr_bytes: z.number().int(),
  stdout_cut_bytes: z.number().int(),
  stderr_cut_bytes: z.number().int(),
  answered: z.array(z.string()),
  leftovers_killed: z.number().int(),
});

/**
 * The rung for anyone, ad hoc: any program under runWrapped's rules, as a tool whose
 * envelope `lift exec` prints. Built per invocation because the deadline and cap are the
 * caller's. The gate is `log`: whoever typed the command (and its --confirm answers) is
 * the person deciding.
 */
export function execTool(settings: ExecSettings) {
  const deadlineMs = settings.deadlineSeconds * 1_000;
  return defineTool({
    name: 'exec_program',
    title: 'Run a program that cannot hang',
    description:
      'Runs one program with fixed arguments, no terminal and a deadline; returns its exit status and capped output. ' +
      'A question the program asks ends the call (PROMPT_UNEXPECTED, or AUTH_REQUIRED for a credential) unless --confirm answers it.',
    group: 'shell',
    rung: 'cli',
    input: ExecInput,
    output: ExecOutput,
    // Both streams at their byte cap, JSON-escaped, fit; the byte cap is what limits them.
    cap: { chars: settings.capBytes * 6 + 4_000, narrow: 'Lower --cap, or make the program print less.' },
    errors: {
      PROGRAM_FAILED: {
        retry: 'no',
        hint: 'The program exited with an error; see the tail of its error output.',
      },
      PROMPT_UNEXPECTED: {
        retry: 'no',
        hint: "Pass the answer as an argument, or add --confirm 'REGEX=>ANSWER'.",
      },
    },
    effect: {
      class: 'irreversible',
      gate: 'log',
      repeat: 'Runs the program again; nothing is deduplicated.',
    },
    // A second more than the program gets, for the wrapper to end it and report.
    timeout: {
      deadlineMs: Math.min(deadlineMs + 1_000, MAX_DEADLINE_MS),
      settle: 'Inspect the system the program acts on.',
    },
    example: { program: 'git', args: ['log', '-3', '--oneline'] },
    run: async (input, ctx) => {
      const result = await runWrapped({
        program: input.program,
        args: input.args,
        cwd: settings.cwd,
        path: settings.path,
        home: settings.home,
        deadline: Math.min(ctx.deadline, Date.now() + deadlineMs),
        signal: ctx.signal,
        confirmations: settings.confirmations,
        approved: true,
        cap: settings.capBytes,
        detailChars: settings.capBytes,
        onStarted: () => ctx.markStarted(),
      });
      return {
        fields: {
          exit_code: result.exitCode,
          stdout: result.stdout.text,
          stderr: result.stderr.text,
          stdout_bytes: result.stdout.bytes,
          stderr_bytes: result.stderr.bytes,
          stdout_cut_bytes: result.stdout.cutBytes,
          stderr_cut_bytes: result.stderr.cutBytes,
          answered: result.answered,
          leftovers_killed: result.leftoversKilled,
        },
        summary: `${input.program} exited 0 in ${Math.round(result.durationMs)} ms`,
        effect: 'changed',
        truncated: result.stdout.truncated || result.stderr.truncated,
      };
    },
  });
}
