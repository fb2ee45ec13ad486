import { fileURLToPath } from 'node:url';
import type { ToolContext } from '../../contract/context.js';
import { LiftError } from '../../contract/errors.js';
import { parseRegexRows } from '../../rungs/cli/parsers.js';
import { runWrapped } from '../../rungs/cli/run-wrapped.js';

/** The operations team's control script shipped as a fixture (resolves from src/ and dist/). */
export const SERVICECTL = fileURLToPath(
  new URL('../../../src/fixtures/services/servicectl.py', import.meta.url),
);

export interface ServiceSettings {
  /** supervisord's configuration file; supervisorctl finds the server through it. */
  supervisorConfig: string;
  /** The services the tools may touch (the input enum). */
  services: readonly [string, ...string[]];
  /** The control script that restarts (default: the fixture's servicectl). */
  servicectl?: string;
}

export interface ServiceStatus {
  service: string;
  state: string;
  pid: number | null;
  uptime_seconds: number | null;
  started_at: string | null;
  healthy: boolean;
}

const STATUS_LINE =
  /^(?<name>\S+)\s+(?<state>[A-Z]+)\s*(?:pid (?<pid>\d+), uptime (?:(?<days>\d+) days?, )?(?<clock>\d+:\d{2}:\d{2}))?.*$/;

function seconds(days: string | undefined, clock: string | undefined): number | null {
  if (!clock) return null;
  const [hours = 0, minutes = 0, secs = 0] = clock.split(':').map(Number);
  return Number(days ?? 0) * 86_400 + hours * 3_600 + minutes * 60 + secs;
}

/** One status read through supervisorctl (rung 2): the state, pid and start time of a service. */
export async function readStatus(
  settings: ServiceSettings,
  service: string,
  ctx: ToolContext,
): Promise<ServiceStatus> {
  const result = await runWrapped({
    program: 'supervisorctl',
    args: ['-c', settings.supervisorConfig, 'status', service],
    deadline: ctx.deadline,
    signal: ctx.signal,
    // Only reads: the restart's look before it starts nothing.
    effectStarts: 'confirmation',
    // supervisorctl says 3 when the service is not running: still a valid status.
    exitCodes: {
      3: 'ok',
      4: { code: 'NOT_FOUND', message: `supervisord knows no service named ${service}.` },
      7: {
        code: 'UPSTREAM_ERROR',
        message: 'supervisord is not reachable.',
        hint: 'Start supervisord, then read again.',
      },
    },
    errorPatterns: [
      {
        pattern: /no such (file|process)|refused connection/i,
        code: 'UPSTREAM_ERROR',
        message: 'supervisord is not reachable.',
      },
    ],
  });
  const row = parseRegexRows('supervisorctl', result.stdout, STATUS_LINE).value[0];
  if (!row || row.name !== service) {
    throw new LiftError('SURFACE_CHANGED', `supervisorctl printed no status line for ${service}.`, {
      details: { sample: result.stdout.text.slice(0, 300) },
    });
  }
  const uptime = seconds(row.days, row.clock);
  return {
    service,
    state: row.state ?? '',
    pid: row.pid ? Number(row.pid) : null,
    uptime_seconds: uptime,
    started_at: uptime === null ? null : new Date(Date.now() - uptime * 1_000).toISOString(),
    healthy: row.state === 'RUNNING',
  };
}
