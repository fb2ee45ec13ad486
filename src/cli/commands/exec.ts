import { MAX_DEADLINE_MS } from '../../contract/duration.js';
import { isError, isSuccess } from '../../contract/envelope.js';
import { isLiftError } from '../../contract/errors.js';
import { linearPattern } from '../../contract/pattern.js';
import {
  DEFAULT_EXEC_CAP_BYTES,
  DEFAULT_EXEC_DEADLINE_SECONDS,
  execTool,
  MAX_EXEC_CAP_BYTES,
} from '../../rungs/cli/exec-tool.js';
import type { Confirmation } from '../../rungs/cli/questions.js';
import { parse, UsageError } from '../args.js';
import type { Command } from '../io.js';
import { printJson } from '../io.js';
import { numberFlag } from '../number-flag.js';
import { openRuntime } from '../open-runtime.js';

const USAGE =
  "Usage: lift exec [--deadline SECONDS] [--confirm 'REGEX=>ANSWER' ...] [--cap BYTES] [--json] -- PROGRAM ARGS...";

/** 'REGEX=>ANSWER', the pattern compiled for the linear-time engine so it cannot stall the deadline. */
function confirmation(text: string): Confirmation {
  const at = text.lastIndexOf('=>');
  if (at <= 0) throw new UsageError(`--confirm takes 'REGEX=>ANSWER', not '${text}'.`);
  try {
    return {
      pattern: linearPattern(text.slice(0, at), { what: '--confirm pattern' }),
      answer: text.slice(at + 2),
    };
  } catch (error) {
    if (!isLiftError(error)) throw error;
    throw new UsageError(`${error.code}: ${error.message}\nhint: ${error.hint}`);
  }
}

/**
 * lift exec -- PROGRAM ARGS...: runs any program so that it can never hang past its
 * deadline nor leave a process behind, and prints the envelope. Exit status: 0 when the
 * program succeeded, its own status when it failed, 124 on TIMEOUT, 1 otherwise.
 */
export const run: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    deadline: { type: 'string' },
    confirm: { type: 'string', multiple: true, default: [] },
    cap: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const [program, ...programArgs] = positionals;
  if (!program) throw new UsageError(USAGE);
  const tool = execTool({
    deadlineSeconds:
      numberFlag(values.deadline, '--deadline', {
        min: 0,
        aboveMin: true,
        max: MAX_DEADLINE_MS / 1_000,
        unit: 'seconds',
      }) ?? DEFAULT_EXEC_DEADLINE_SECONDS,
    confirmations: values.confirm.map(confirmation),
    capBytes:
      numberFlag(values.cap, '--cap', { min: 1, max: MAX_EXEC_CAP_BYTES, unit: 'bytes', integer: true }) ??
      DEFAULT_EXEC_CAP_BYTES,
    path: io.env.PATH,
    home: io.env.HOME,
    cwd: io.cwd,
  });
  const runtime = await openRuntime(io);
  try {
    const envelope = await runtime.invoke(tool, { program, args: programArgs });
    if (values.json) printJson(io, envelope);
    else if (isSuccess(envelope)) {
      const { stdout, stderr } = envelope.fields as { stdout: string; stderr: string };
      if (stdout) io.out(stdout);
      if (stderr) io.err(stderr);
      io.err(
        `lift exec: ${envelope.summary}${envelope.truncated ? ' (output cut; see stdout_cut_bytes with --json)' : ''}`,
      );
    } else if (isError(envelope)) {
      const details = envelope.error.details ?? {};
      if (typeof details.stdout_tail === 'string' && details.stdout_tail) io.out(details.stdout_tail);
      if (typeof details.stderr_tail === 'string' && details.stderr_tail) io.err(details.stderr_tail);
      io.err(`lift exec: ${envelope.error.code}: ${envelope.error.message}\nhint: ${envelope.error.hint}`);
    }
    if (!isError(envelope)) return 0;
    if (envelope.error.code === 'TIMEOUT') return 124;
    const exitCode = envelope.error.details?.exit_code;
    return typeof exitCode === 'number' && exitCode > 0 ? exitCode : 1;
  } finally {
    await runtime.close();
  }
};
