import { createHash } from 'node:crypto';
import type { Envelope } from '../contract/envelope.js';

/** The one queue every Lift job goes through. */
export const QUEUE = 'lift-jobs';

/**
 * A tool call (a capability replay is a tool call too), with the folders its caller opened to
 * path tools when it brought its own (an MCP client's roots), or the run of an approved held call.
 */
export type JobData =
  | {
      kind: 'call';
      request_id: string;
      tool: string;
      input: unknown;
      roots?: readonly string[];
      /**
       * The approval whose run this call follows: the request id's first job answered that it
       * was held, so a retry after the approved call ran is a job of its own, which the ledger
       * answers.
       */
      after?: string;
    }
  | { kind: 'approve'; request_id: string; approval_id: string; by: string; phrase?: string };

/** What a finished job holds: the call's envelope, or the error an approval was refused with. */
export type JobOutput =
  | { envelope: Envelope }
  | { refused: { code: string; message: string; hint?: string | undefined } };

/**
 * The job's id is its request id: the queue (pg-boss) names jobs by UUID, so the UUID is
 * derived from the request id alone. Sending one request id twice is one job.
 */
export function jobIdOf(requestId: string): string {
  const hex = createHash('sha256').update(`lift-job\0${requestId}`).digest('hex');
  // A version-8 (custom) UUID with the RFC 4122 variant.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** What names a job: its request id, and for a retry after an approval ran, that approval too. */
export function jobKeyOf(data: JobData): string {
  return data.kind === 'call' && data.after ? `${data.request_id}\0after\0${data.after}` : data.request_id;
}

/** The request id of the job that runs approval `approvalId` once a person said yes. */
export function approvalRequestId(approvalId: string): string {
  return `approve.${approvalId}`;
}
