import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkbook } from '../../../src/apps/office/build-workbook.js';
import { ColdOffice } from '../../../src/apps/office/worker.js';
import { defineTool } from '../../../src/contract/define-tool.js';
import { leftBehind, type OfficeRuntime, officeRuntime } from './office-runtime.js';

const SMALL_PLAN = {
  plan: {
    title: 'Orders',
    sheets: [
      {
        name: 'Orders',
        kind: 'table',
        columns: ['Item', 'Qty', 'Price', { name: 'Amount', formula: '[Qty] * [Price]' }],
        rows: [
          ['Pens', 10, 1.5],
          ['Paper', 2, 4.25],
        ],
        total: { Amount: 'sum' },
      },
    ],
  },
};

describe('the office worker', () => {
  let warm: OfficeRuntime;
  beforeAll(async () => {
    warm = await officeRuntime();
  });
  afterAll(async () => {
    const profile = warm.office.profileDir;
    await warm.close();
    expect(leftBehind(profile)).toEqual([]);
    expect(existsSync(profile)).toBe(false);
  });

  it('ends a job that hangs the office process with TIMEOUT, then recovers for the next job', async () => {
    const first = await warm.runtime.invoke('build_workbook', SMALL_PLAN);
    expect(first.ok).toBe(true);
    const hung = await warm.office.officePids();
    expect(hung.length).toBeGreaterThan(0);
    for (const pid of hung) process.kill(pid, 'SIGSTOP');

    const impatient = defineTool({ ...buildWorkbook, timeout: { deadlineMs: 3000 } });
    const started = Date.now();
    const timedOut = await warm.runtime.invoke(impatient, SMALL_PLAN);
    expect('error' in timedOut && timedOut.error.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(20_000);
    // The hung processes were ended (SIGKILL lands within moments, even on a stopped process).
    const running = () => hung.filter((pid) => existsSync(`/proc/${pid}`) && !isZombie(pid));
    for (let wait = 0; wait < 50 && running().length > 0; wait++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(running()).toEqual([]);

    const next = await warm.runtime.invoke('build_workbook', SMALL_PLAN);
    expect(next.ok, JSON.stringify(next)).toBe(true);
    expect(warm.office.starts).toBe(2);
  });

  it('runs the same job cold, in a new office process that is gone afterwards', async () => {
    const cold = new ColdOffice();
    const runtime = await officeRuntime(cold);
    try {
      const envelope = await runtime.runtime.invoke('build_workbook', SMALL_PLAN);
      expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
      expect(leftBehind(cold.profileDir)).toEqual([]);
    } finally {
      await runtime.close();
      await cold.close();
    }
    expect(existsSync(cold.profileDir)).toBe(false);
  });
});

describe('an office worker whose process dies without closing it', () => {
  it('takes its office process with it', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./fixtures/start-worker.ts', import.meta.url))],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const lines = createInterface({ input: child.stdout! });
    const started = await Promise.race([
      once(lines, 'line').then(
        ([line]) => JSON.parse(line as string) as { profileDir: string; pids: number[] },
      ),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('the worker did not start within 90 s')), 90_000),
      ),
    ]).finally(() => lines.close());
    expect(started.pids.length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    let remaining = leftBehind(started.profileDir);
    for (let wait = 0; wait < 100 && remaining.length > 0; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      remaining = leftBehind(started.profileDir);
    }
    expect(remaining).toEqual([]);
    rmSync(started.profileDir, { recursive: true, force: true });
  }, 120_000);
});

function isZombie(pid: number): boolean {
  try {
    return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true;
  }
}
