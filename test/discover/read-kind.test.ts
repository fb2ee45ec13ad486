import { describe, expect, it } from 'vitest';
import { describeReadKind, readKind } from '../../src/discover/read-kind.js';

describe('the kind of a value read, as the explorer is told it', () => {
  it.each([
    ['', 'empty'],
    ['42', 'whole number'],
    ['1,234.50', 'number'],
    ['€ 12.50', 'number with a sign or unit'],
    ['12 kg', 'number with a sign or unit'],
    ['2024-03-12', 'date'],
    ['12 March 2024', 'date'],
    ['Mar 12, 2024 10:15', 'date and time'],
    ['10:15', 'time'],
    ['jdoe@example.org', 'email address'],
    ['https://example.org/a', 'URL'],
    ['/index.php/Tools', 'path'],
    ['Yes', 'yes/no'],
    ['Resolved', 'word'],
    ['M-1002', 'identifier'],
    ['Contact form returns 500', 'text'],
  ])('%j is %s', (raw, kind) => {
    expect(readKind(raw, 'string', {}).kind).toBe(kind);
  });

  it('counts characters, words and lines, and says whether it fits the declared type', () => {
    const read = readKind('  first line\n\nsecond   line here \n', 'number', {});
    expect(read).toMatchObject({ kind: 'text', length: 27, words: 5, lines: 2, fits: false });
    expect(describeReadKind(read)).toBe('text of 5 words on 2 lines, 27 characters');
  });

  it('names the bound input a read equals or holds, never its value', () => {
    expect(readKind('m-1002', 'string', { member: 'M-1002' })).toMatchObject({ sameAs: 'member' });
    const row = readKind('M-1002 Jane Doe active', 'string', { member: 'M-1002', status: 'active' });
    expect(row.holds).toEqual(['member', 'status']);
    expect(describeReadKind(row)).toBe(
      'text of 4 words, 22 characters, holding the bound inputs member, status',
    );
  });
});
