import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceTools } from '../../../src/apps/services/tools.js';
import { isError, isPending, isSuccess } from '../../../src/contract/envelope.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { type Supervisor, startSupervisor } from './supervisor.js';

let supervisor: Supervisor;
let lift: Runtime;
const home = mkdtempSync(join(tmpdir(), 'lift-services-'));

beforeAll(async () => {
  supervisor = await startSupervisor();
  lift = new Runtime({
    home,
    tools: serviceTools({ supervisorConfig: supervisor.config, services: ['demo-worker'] }),
  });
});

afterAll(async () => {
  await lift?.close();
  await supervisor?.stop();
  rmSync(home, { recursive: true, force: true });
});

async function status() {
  const envelope = await lift.invoke('service_status', { service: 'demo-worker' });
  if (!isSuccess(envelope)) throw new Error(JSON.stringify(envelope));
  return envelope.fields as { state: string; pid: number; healthy: boolean };
}

const restart = (requestId: string) => ({
  service: 'demo-worker',
  reason: 'picks up the new config',
  request_id: requestId,
});

describe('service_status', () => {
  it('reads state and pid from supervisorctl', async () => {
    const fields = await status();
    expect(fields.state).toBe('RUNNING');
    expect(fields.healthy).toBe(true);
    expect(fields.pid).toBeGreaterThan(0);
  });

  it('only accepts allow-listed services', async () => {
    const envelope = await lift.invoke('service_status', { service: 'postgres' });
    expect(isError(envelope) && envelope.error.code).toBe('BAD_INPUT');
  });
});

describe('service_restart', () => {
  it('is held at the review gate without touching the service, then restarts after approval and reads healthy back', async () => {
    const pidBefore = (await status()).pid;
    const held = await lift.invoke('service_restart', restart('restart-000001'));
    if (!isPending(held)) throw new Error(JSON.stringify(held));
    expect(held.pending.preview).toContain('Restart demo-worker');
    expect((await status()).pid).toBe(pidBefore);

    const envelope = await lift.approve(held.pending.approval_id);
    if (!isSuccess(envelope)) throw new Error(JSON.stringify(envelope));
    expect(envelope.ok).toBe(true);
    expect(envelope.effect).toBe('changed');
    expect(envelope.fields).toMatchObject({ healthy: true, state_after: 'RUNNING', pid_before: pidBefore });
    expect(envelope.fields.pid_after).not.toBe(pidBefore);
    expect(envelope.checks).toEqual([{ name: 'started after the call', passed: true }]);
    expect((await status()).pid).toBe(envelope.fields.pid_after);
  }, 60_000);

  it('a repeat with the same request_id returns the first result instead of restarting again', async () => {
    const pid = (await status()).pid;
    const again = await lift.invoke('service_restart', restart('restart-000001'));
    if (!isSuccess(again)) throw new Error(JSON.stringify(again));
    expect(again.effect).toBe('existing');
    expect((await status()).pid).toBe(pid);
  });

  it('reports UNHEALTHY_AFTER_RESTART when the service does not come back', async () => {
    writeFileSync(supervisor.brokenFlag, '');
    try {
      const held = await lift.invoke('service_restart', restart('restart-000002'));
      if (!isPending(held)) throw new Error(JSON.stringify(held));
      const envelope = await lift.approve(held.pending.approval_id);
      if (!isError(envelope)) throw new Error(JSON.stringify(envelope));
      expect(envelope.error.code).toBe('UNHEALTHY_AFTER_RESTART');
      expect(envelope.error.retry).toBe('no');
      expect(['FATAL', 'EXITED', 'BACKOFF']).toContain(envelope.error.details?.state_after);
    } finally {
      rmSync(supervisor.brokenFlag, { force: true });
    }
  }, 60_000);
});
