/** A working folder with Lift's home inside it, a folder outside it, and links that lead out. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Envelope } from '../../src/contract/envelope.js';
import { stable } from '../serve/support.js';

export const SECRET_CANARY = 'canary-secret-3c9e1f7a55';

export interface Layout {
  base: string;
  work: string;
  home: string;
  outside: string;
  remove(): void;
}

/**
 * base/work is the working folder and base/work/.lift Lift's home (the default layout, where a
 * careless check would let everything in the home through). base/outside holds a file no tool
 * may reach; base/work/link-out and base/work/linkdir are links to it.
 */
export function layout(): Layout {
  const base = mkdtempSync(join(tmpdir(), 'lift-roots-'));
  const work = join(base, 'work');
  const home = join(work, '.lift');
  const outside = join(base, 'outside');
  mkdirSync(work);
  mkdirSync(outside);
  writeFileSync(join(outside, 'private.csv'), 'Name,Salary\nAda,90000\n');
  writeFileSync(join(work, 'doc.csv'), 'Item,Quantity\nLanterns,12\n');
  symlinkSync(join(outside, 'private.csv'), join(work, 'link-out'));
  symlinkSync(outside, join(work, 'linkdir'));
  return { base, work, home, outside, remove: () => rmSync(base, { recursive: true, force: true }) };
}

/** The paths every path-taking tool must refuse, by the way each escapes. */
export const ESCAPES: Array<[string, (at: Layout) => string]> = [
  ['a system file', () => '/etc/passwd'],
  ["Lift's secret store", (at) => join(at.home, 'secrets.json')],
  ["Lift's database", (at) => join(at.home, 'lift.db')],
  ["Lift's secret store, relative to the working folder", () => '.lift/secrets.json'],
  ['a .. escape', (at) => join(at.work, '..', 'outside', 'private.csv')],
  ['a link inside the root that points outside', (at) => join(at.work, 'link-out')],
  ['a file under a linked folder', (at) => join(at.work, 'linkdir', 'private.csv')],
];

/**
 * What of an envelope could carry a leaked value: all but the run's id and duration, which Lift
 * makes itself (a run id's random hex held "90000" once in sixteen processes or so).
 */
export function leakableText(envelope: Envelope): string {
  return JSON.stringify(stable(envelope));
}

/** The envelope is BAD_INPUT, names the working folder as a root unless it is about the home, and leaks nothing. */
export function expectRefused(envelope: Envelope, at: Layout): void {
  if (!('error' in envelope)) throw new Error(`expected BAD_INPUT, got ${JSON.stringify(envelope)}`);
  expect(envelope.error.code, envelope.error.message).toBe('BAD_INPUT');
  const text = leakableText(envelope);
  if (!envelope.error.message.includes("Lift's own folder"))
    expect(envelope.error.message).toContain(at.work);
  expect(text).not.toContain(SECRET_CANARY);
  expect(text).not.toContain('90000');
  expect(text).not.toContain('root:x:0');
}
