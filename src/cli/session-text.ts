import type { DaemonRequest } from '../discover/daemon.js';

type Reply = { ok: boolean } & Record<string, unknown>;

interface ActionResult {
  index?: number;
  op?: string;
  status?: string;
  effect?: string;
  code?: string;
  message?: string;
  hint?: string;
  example?: unknown;
}

/** One action's outcome on a line, its hint and corrected example under it. */
function actionLines(result: ActionResult, number: number): string[] {
  const outcome = [result.status, result.effect, result.code].filter(Boolean).join(', ');
  const lines = [
    `${number}. ${result.op ?? 'action'}: ${outcome}${result.message ? ` — ${result.message}` : ''}`,
  ];
  if (result.hint) lines.push(`   hint: ${result.hint}`);
  if (result.example !== undefined) lines.push(`   example: ${JSON.stringify(result.example)}`);
  return lines;
}

/** A capability compiled: its name, size and revision, the file it is in, and what it left out. */
function completedLines(reply: Reply): string[] {
  const lines = [
    `compiled ${String(reply.name)}: ${String(reply.steps)} steps, revision ${String(reply.revision)}`,
  ];
  if (typeof reply.file === 'string') lines.push(`file: ${reply.file}`);
  const left = Array.isArray(reply.left_out)
    ? (reply.left_out as Array<{ action: number; op: string; reason: string }>)
    : [];
  if (left.length === 0) lines.push('left out: nothing');
  for (const entry of left) lines.push(`left out: action ${entry.action} (${entry.op}): ${entry.reason}`);
  return lines;
}

/** The other fields of a reply, one `key: value` line each (status, stop, resume, handoff). */
function fieldLines(reply: Reply): string[] {
  return Object.entries(reply)
    .filter(([key]) => key !== 'ok')
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
}

/**
 * A daemon reply as a person reads it (`--json` prints the reply itself): an observation as
 * its text, an act one line per action, a completion with the capability's file and what it
 * left out, a failure with its code, hint and a correct example.
 */
export function replyText(message: DaemonRequest, reply: Reply): string {
  const lines: string[] = [];
  if (!reply.ok) {
    lines.push(`error ${String(reply.error)}: ${String(reply.message)}`);
    if (typeof reply.hint === 'string') lines.push(`hint: ${reply.hint}`);
    if (reply.example !== undefined) lines.push(`example: ${JSON.stringify(reply.example)}`);
  }
  const tool = message.kind === 'call' ? message.tool : undefined;
  if (Array.isArray(reply.results)) {
    for (const [index, result] of (reply.results as ActionResult[]).entries())
      lines.push(...actionLines(result, index + 1));
  } else if (reply.ok && tool === 'observe' && typeof reply.observation === 'string') {
    lines.push(reply.observation);
    if (typeof reply.screenshot === 'string') lines.push(`screenshot: ${reply.screenshot}`);
  } else if (reply.ok && tool === 'complete') {
    lines.push(...completedLines(reply));
  } else if (reply.ok) {
    lines.push(...fieldLines(reply));
  }
  return lines.join('\n');
}
