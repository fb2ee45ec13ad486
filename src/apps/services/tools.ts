import { z } from 'zod';
import { type AnyTool, defineTool } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import { runWrapped } from '../../rungs/cli/run-wrapped.js';
import { readStatus, SERVICECTL, type ServiceSettings, type ServiceStatus } from './status.js';
// Declares the events this file emits, with their words (a run log's readers find them there).
import './events.js';

export type { ServiceSettings } from './status.js';

const State = z.string().describe("supervisord's state: RUNNING, STOPPED, BACKOFF, FATAL, ...");
const Pid = z.number().int().nullable().describe('Process id; null when not running.');
const StartedAt = z.string().nullable().describe('ISO 8601 start time; null when not running.');
const Healthy = z.boolean().describe('True when the state is RUNNING.');

const StatusOutput = z.object({
  service: z.string().describe('The service read.'),
  state: State,
  pid: Pid,
  uptime_seconds: z.number().int().nullable().describe('Seconds since it started; null when not running.'),
  started_at: StartedAt,
  healthy: Healthy,
});

/** States from which supervisord will not move on its own: stop polling (BACKOFF still retries). */
const SETTLED = new Set(['RUNNING', 'FATAL', 'EXITED', 'STOPPED']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** service_status and service_restart over supervisord, for the allow-listed services. */
export function serviceTools(settings: ServiceSettings): AnyTool[] {
  const Service = z.enum(settings.services).describe('A supervised service the operator allow-listed.');

  const statusTool = defineTool({
    name: 'service_status',
    title: 'Read a service status',
    description:
      'Reads the status of one supervised service. Returns its state, pid, uptime, start time and whether it is healthy (RUNNING).',
    group: 'services',
    rung: 'cli',
    input: z.strictObject({ service: Service }),
    output: StatusOutput,
    errors: { NOT_FOUND: { retry: 'no', hint: 'The service is not configured in supervisord.' } },
    effect: { class: 'read' },
    timeout: { deadlineMs: 10_000 },
    example: { service: settings.services[0] },
    run: async (input, ctx) => {
      const status = await readStatus(settings, input.service, ctx);
      return {
        fields: status,
        summary: `${status.service} is ${status.state}`,
        verifiedBy: 'supervisorctl status (rung 2)',
      };
    },
  });

  const restartTool = defineTool({
    name: 'service_restart',
    title: 'Restart a service and confirm it is healthy',
    description:
      'Restarts one allow-listed supervised service and reads its status back until it is healthy. Users see a short interruption. Returns the state after, healthy, the pids before and after, and the start time.',
    group: 'services',
    rung: 'cli',
    ladder: {
      ruledOut: ['api: the owners expose no restart API (fails "present")'],
      stepDown: 'repeated PROMPT_UNEXPECTED or SURFACE_CHANGED -> rung 4, the dashboard button',
      climb: 'the owners expose restart and health as an API -> rung 1',
    },
    input: z.strictObject({
      service: Service,
      reason: z.string().min(3).max(200).describe('Why it needs a restart; shown to the approver.'),
      request_id: RequestIdSchema,
    }),
    output: z.object({
      service: z.string().describe('The service restarted.'),
      state_after: State,
      healthy: Healthy,
      pid_before: Pid,
      pid_after: Pid,
      started_at: StartedAt,
    }),
    cap: { chars: 800 },
    errors: {
      UNHEALTHY_AFTER_RESTART: {
        retry: 'no',
        hint: 'The service restarted but is not RUNNING. Read its log before another restart.',
      },
      NOT_FOUND: {
        retry: 'no',
        hint: 'The control script does not know this service; check the supervisord configuration.',
      },
      UPSTREAM_ERROR: {
        retry: 'after_check',
        hint: 'supervisord did not answer; read service_status before retrying.',
      },
    },
    effect: {
      class: 'visible',
      gate: 'review',
      repeat:
        'A ledger keyed by request_id returns the first result (effect: existing); a new request_id restarts again.',
    },
    timeout: { deadlineMs: 120_000, settle: 'service_status: compare started_at with the time of the call' },
    confirmations: ['Restart NAME? Users will see a short interruption. [y/N] -> y'],
    session: { secret: 'none', onExpiry: "supervisord's local socket; the wrapper user needs access to it." },
    preview: (input) => `Restart ${input.service} (users see a short interruption). Reason: ${input.reason}`,
    example: {
      service: settings.services[0],
      reason: 'stuck after a config change',
      request_id: 'restart-7f3a9e21',
    },
    run: async (input, ctx) => {
      const calledAt = Date.now();
      const before = await readStatus(settings, input.service, ctx);
      await runWrapped({
        program: settings.servicectl ?? SERVICECTL,
        args: ['--config', settings.supervisorConfig, 'restart', input.service],
        deadline: ctx.deadline,
        signal: ctx.signal,
        confirmations: [{ pattern: /^Restart \S+\? .*\[y\/N\]$/, answer: 'y' }],
        approved: ctx.approved,
        effectStarts: 'confirmation',
        settle: 'service_status: compare started_at with the time of the call',
        // 7: supervisorctl could not start it again; the status read below tells what state it is in.
        exitCodes: {
          7: 'ok',
          3: {
            code: 'NOT_FOUND',
            message: `The control script knows no service named ${input.service}.`,
            outcome: 'not_started',
          },
          1: { code: 'UPSTREAM_ERROR', message: 'supervisord did not answer the restart.' },
        },
      });
      let after: ServiceStatus = await readStatus(settings, input.service, ctx);
      while (!SETTLED.has(after.state) && Date.now() < ctx.deadline - 1_000) {
        await sleep(200);
        after = await readStatus(settings, input.service, ctx);
      }
      ctx.emit({ type: 'service-status-read', state: after.state, pid: after.pid });
      if (!after.healthy || after.pid === before.pid) {
        throw new LiftError(
          'UNHEALTHY_AFTER_RESTART',
          `${input.service} is ${after.state} after the restart.`,
          {
            details: { state_after: after.state, pid_before: before.pid, pid_after: after.pid },
          },
        );
      }
      const fields = {
        service: input.service,
        state_after: after.state,
        healthy: after.healthy,
        pid_before: before.pid,
        pid_after: after.pid,
        started_at: after.started_at,
      };
      return {
        fields,
        summary: `${input.service} restarted: ${after.state}, pid ${after.pid}`,
        effect: 'changed',
        verifiedBy: 'supervisorctl status (rung 2): RUNNING with a new pid, started after the call',
        checks: [
          {
            name: 'started after the call',
            // supervisorctl reports uptime in whole seconds.
            passed:
              after.uptime_seconds !== null &&
              after.uptime_seconds <= Math.ceil((Date.now() - calledAt) / 1_000) + 1,
          },
        ],
      };
    },
  });

  return [statusTool, restartTool];
}
