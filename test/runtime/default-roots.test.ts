/**
 * Which working folder is a root (issue 40): a project's is; `/`, the user's whole home (or a
 * folder holding it), a system folder and a folder shared by everyone are not, links followed.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { broadFolder, defaultRoots } from '../../src/runtime/default-roots.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir('lift-default-roots-');
afterAll(() => dir.remove());
const person = join(dir.path, 'person');
const project = join(person, 'shop');
mkdirSync(project, { recursive: true });
symlinkSync('/', join(dir.path, 'disk'));
symlinkSync('/etc', join(dir.path, 'settings'));

describe('broadFolder', () => {
  it.each([
    ['/', 'the whole disk'],
    [join(dir.path, 'disk'), 'the whole disk'],
    [person, 'your whole home folder'],
    [dir.path, 'a folder holding your whole home folder'],
    ['/etc', 'a system folder'],
    ['/etc/ssl', 'a system folder'],
    [join(dir.path, 'settings'), 'a system folder'],
    ['/usr/local/bin', 'a system folder'],
    ['/proc/self', 'a system folder'],
    ['/var/lib', 'a system folder'],
  ])('%s is no root: %s', (folder, why) => {
    expect(broadFolder(folder, person)).toBe(why);
  });

  // With the home elsewhere, as a person's usually is (this test's lives under /tmp).
  it.each(['/tmp', '/home', '/var', '/opt'])('%s is no root: a folder shared by everyone', (folder) => {
    expect(broadFolder(folder, '/home/someone')).toBe(
      folder === '/home'
        ? 'a folder holding your whole home folder'
        : 'a folder shared by everyone on the machine',
    );
  });

  it.each([project, '/var/www/site', '/srv/app', join('/tmp', 'lift-work')])('%s is a root', (folder) => {
    expect(broadFolder(folder, person)).toBeUndefined();
  });
});

describe('defaultRoots', () => {
  it('takes the roots given, relative to the working folder', () => {
    expect(defaultRoots(['docs', '/srv/a'], project, person)).toEqual({
      roots: [join(project, 'docs'), '/srv/a'],
      noRoot: undefined,
    });
  });

  it('else a project working folder', () => {
    expect(defaultRoots(undefined, project, person)).toEqual({ roots: [project], noRoot: undefined });
  });

  it('else none, saying why', () => {
    expect(defaultRoots([], '/', person)).toEqual({
      roots: [],
      noRoot:
        'Lift was started from /, the whole disk, which is no root of its own, and no root folder was set',
    });
  });
});
