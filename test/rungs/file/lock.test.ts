import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LiftError } from '../../../src/contract/errors.js';
import { acquireLock, readLockOwner, withLock } from '../../../src/rungs/file/index.js';
import { tempDir } from '../../support/temp.js';

const dir = tempDir('lift-lock-');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  dir.remove();
});

function holdLock(path: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'fixtures', 'hold-lock.mjs'), path], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the holder did not take the lock')), 10_000);
    child.stdout?.once('data', () => {
      clearTimeout(timer);
      resolve(child);
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );
}

describe('the lock-file convention', () => {
  it('waits for a lock another process holds, then times out with outcome not_started naming the holder', async () => {
    const path = join(dir.path, 'held.lock');
    const holder = await holdLock(path);
    const started = Date.now();
    const error = await acquireLock(path, { deadline: Date.now() + 700 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LiftError);
    expect((error as LiftError).code).toBe('TIMEOUT');
    expect((error as LiftError).outcome).toBe('not_started');
    expect((error as LiftError).hint).toContain(`Process ${holder.pid}`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(650);
    expect(readLockOwner(path)?.pid).toBe(holder.pid);
  });

  it('takes the lock as soon as the holder releases it within the deadline', async () => {
    const path = join(dir.path, 'released.lock');
    const holder = await holdLock(path);
    setTimeout(() => holder.kill('SIGTERM'), 300);
    const lock = await acquireLock(path, { deadline: Date.now() + 10_000 });
    expect(readLockOwner(path)?.pid).toBe(process.pid);
    lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it('breaks a stale lock whose owner died (kill -9)', async () => {
    const path = join(dir.path, 'stale.lock');
    const holder = await holdLock(path);
    holder.kill('SIGKILL');
    await exited(holder);
    expect(existsSync(path)).toBe(true);
    const lock = await acquireLock(path, { deadline: Date.now() + 2_000 });
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('serialises writers in one process: the second waits for the first', async () => {
    const path = join(dir.path, 'serial.lock');
    const order: string[] = [];
    const first = withLock(path, { deadline: Date.now() + 5_000 }, async () => {
      order.push('first in');
      await new Promise((resolve) => setTimeout(resolve, 200));
      order.push('first out');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = withLock(path, { deadline: Date.now() + 5_000 }, async () => {
      order.push('second in');
    });
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second in']);
    expect(existsSync(path)).toBe(false);
  });
});
