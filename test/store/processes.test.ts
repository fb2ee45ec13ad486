import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LEASE_MS, ownerIsGone, processStart, thisProcess } from '../../src/store/processes.js';

describe('the owner of a lease', () => {
  it('is alive while its process runs', () => {
    expect(ownerIsGone(thisProcess())).toBe(false);
  });

  it('is gone once its process has exited', () => {
    const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const pid = Number(exited.stdout.toString());
    expect(ownerIsGone({ ...thisProcess(), pid, started: undefined })).toBe(true);
  });

  it('is gone when its pid now names a process that started at another time', () => {
    expect(processStart(process.pid)).toMatch(/^\d+$/);
    expect(ownerIsGone({ ...thisProcess(), started: '1' })).toBe(true);
  });

  it('on another host, is gone only once its heartbeat is older than the lease', () => {
    const elsewhere = { ...thisProcess(), host: 'another-host.invalid' };
    expect(ownerIsGone(elsewhere)).toBe(false);
    expect(
      ownerIsGone({ ...elsewhere, heartbeatAt: new Date(Date.now() - LEASE_MS - 1_000).toISOString() }),
    ).toBe(true);
  });
});
