import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isLiftError } from '../../src/contract/errors.js';
import {
  type PathPolicy,
  realLocation,
  resolveInRoots,
  resolveOutput,
  rootsFromSettings,
} from '../../src/runtime/roots.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir('lift-roots-unit-');
afterAll(() => dir.remove());
const work = join(dir.path, 'work');
const elsewhere = join(dir.path, 'elsewhere');
mkdirSync(join(work, '.lift', 'out'), { recursive: true });
mkdirSync(elsewhere);
symlinkSync(elsewhere, join(work, 'linked'));
symlinkSync(join(elsewhere, 'not-yet.txt'), join(work, 'dangling'));
writeFileSync(join(work, 'mine.txt'), 'mine');

const policy: PathPolicy = {
  workingDir: work,
  home: join(work, '.lift'),
  outputDir: join(work, '.lift', 'out'),
  dataDir: join(work, '.lift', 'data'),
  families: { docs: [elsewhere] },
  origins: {},
  defaultRoots: [work],
};

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (isLiftError(error)) return error;
    throw error;
  }
  throw new Error('not refused');
};

describe('realLocation', () => {
  it('resolves a file that does not exist yet under a linked folder to where it would land', () => {
    expect(realLocation(join(work, 'linked', 'new', 'file.txt'))).toBe(join(elsewhere, 'new', 'file.txt'));
  });

  it('follows a dangling link to the file writing through it would create', () => {
    expect(realLocation(join(work, 'dangling'))).toBe(join(elsewhere, 'not-yet.txt'));
  });
});

describe('resolveInRoots', () => {
  it('returns the real path of a file inside the working folder, relative paths included', () => {
    expect(resolveInRoots(policy, 'mine.txt', { family: 'office', what: 'path' })).toBe(
      join(work, 'mine.txt'),
    );
  });

  it('refuses a new file under a linked folder and a dangling link, naming the roots', () => {
    for (const path of [join(work, 'linked', 'new.txt'), join(work, 'dangling')]) {
      const error = refusal(() => resolveInRoots(policy, path, { family: 'office', what: 'path' }));
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toContain(work);
      expect(error.hint).toContain('"settings": { "office": { "roots"');
    }
  });

  it('lets the configured roots of a family replace the working folder', () => {
    expect(resolveInRoots(policy, join(work, 'linked', 'a.txt'), { family: 'docs', what: 'path' })).toBe(
      join(elsewhere, 'a.txt'),
    );
    expect(refusal(() => resolveInRoots(policy, 'mine.txt', { family: 'docs', what: 'path' })).code).toBe(
      'BAD_INPUT',
    );
  });

  it("never reaches Lift's home, even when a root contains it, but reaches its output folder", () => {
    for (const path of ['.lift/secrets.json', '.lift', '.lift/out/../lift.db']) {
      const error = refusal(() => resolveInRoots(policy, path, { family: 'office', what: 'path' }));
      expect(error.message).toContain("Lift's own folder");
      expect(error.message).not.toContain(policy.home);
    }
    expect(resolveInRoots(policy, '.lift/out/report.pdf', { family: 'office', what: 'path' })).toBe(
      join(policy.outputDir, 'report.pdf'),
    );
  });

  it("resolves a data scope's relative paths in the family's data folder, which no other family reaches", () => {
    const scope = { family: 'inventory', what: 'the data file', roots: ['.'], data: true };
    const file = join(policy.dataDir, 'inventory', 'inventory.json');
    expect(resolveInRoots(policy, 'inventory.json', scope)).toBe(file);
    expect(resolveInRoots(policy, file, scope)).toBe(file);
    expect(statSync(join(policy.dataDir, 'inventory')).mode & 0o777).toBe(0o700);
    const other = refusal(() => resolveInRoots(policy, file, { family: 'office', what: 'path' }));
    expect(other.message).toContain("Lift's own folder");
    expect(refusal(() => resolveOutput(policy, file)).code).toBe('BAD_INPUT');
    expect(refusal(() => resolveInRoots(policy, '../lift.db', scope)).message).toContain("Lift's own folder");
  });

  it('refuses a NUL character', () => {
    expect(
      refusal(() => resolveInRoots(policy, 'mine.txt\0.png', { family: 'office', what: 'path' })).code,
    ).toBe('BAD_INPUT');
  });
});

describe('resolveOutput', () => {
  it('refuses an output folder that is a link out of the output folder', () => {
    symlinkSync(elsewhere, join(policy.outputDir, 'some_tool'));
    const error = refusal(() => resolveOutput(policy, join(policy.outputDir, 'some_tool', 'x.pdf')));
    expect(error.code).toBe('BAD_INPUT');
  });
});

describe('rootsFromSettings', () => {
  it('reads settings.<family>.roots, relative to the config folder', () => {
    expect(
      rootsFromSettings({ office: { roots: ['docs', '/srv/x'] }, payroll: { root: '/p' } }, '/cfg'),
    ).toEqual({
      office: ['/cfg/docs', '/srv/x'],
    });
    expect(() => rootsFromSettings({ office: { roots: 'docs' } }, '/cfg')).toThrow(/settings\.office\.roots/);
  });
});
