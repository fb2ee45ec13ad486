import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { payrollTools } from '../../../src/apps/payroll/tools.js';
import type { Envelope, ErrorEnvelope, SuccessEnvelope } from '../../../src/contract/envelope.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { tempDir } from '../../support/temp.js';

export function payrollRuntime(
  root: string,
  options: { maxExportAgeSeconds?: number; importDeadlineMs?: number } = {},
) {
  const home = tempDir('lift-payroll-home-');
  const runtime = new Runtime({
    home: home.path,
    tools: payrollTools({ root, importDeadlineMs: 50_000, ...options }),
  });
  return {
    runtime,
    close: async () => {
      await runtime.close();
      home.remove();
    },
  };
}

export function success(envelope: Envelope): SuccessEnvelope {
  if (!('fields' in envelope)) throw new Error(`expected success, got ${JSON.stringify(envelope)}`);
  return envelope;
}

export function failure(envelope: Envelope): ErrorEnvelope['error'] {
  if (!('error' in envelope)) throw new Error(`expected an error, got ${JSON.stringify(envelope)}`);
  return envelope.error;
}

/** Hours for `count` distinct employee-days, all valid for the fixture's roster. */
export function entries(count: number, firstDay = 0, year = 2026) {
  return Array.from({ length: count }, (_, index) => {
    const day = new Date(Date.UTC(year, 0, 1 + firstDay + Math.floor(index / 50)));
    return {
      employee_id: `E${String((index % 50) + 1).padStart(4, '0')}`,
      date: day.toISOString().slice(0, 10),
      hours: 1,
    };
  });
}

/** Every file name the daemon opened, from its own log. */
export function filesOpened(root: string): string[] {
  const log = join(root, 'daemon.log');
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line.includes(' open '))
    .map((line) => line.split(' open ')[1] ?? '');
}

export function holdLock(path: string): Promise<ChildProcess> {
  const script = join(import.meta.dirname, '..', '..', 'rungs', 'file', 'fixtures', 'hold-lock.mjs');
  const child = spawn(process.execPath, [script, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the holder did not take the lock')), 10_000);
    child.stdout?.once('data', () => {
      clearTimeout(timer);
      resolve(child);
    });
  });
}
