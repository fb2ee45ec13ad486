import { describe, expect, it } from 'vitest';
import { comparable, comparesEqual, type Normalise } from '../../src/capability/normalise.js';

// What a checkpoint compares when the application writes a value its own way: the pages of
// issue 41 showed each of these for the value typed.
const equal = (
  shown: string,
  expected: string,
  normalise?: Normalise,
  match: 'exact' | 'contains' = 'exact',
) => comparesEqual(shown, expected, match, normalise);

describe('a comparison without normalisation', () => {
  it("is today's: the text trimmed, character for character", () => {
    expect(equal('  editors,user \n', 'editors,user')).toBe(true);
    expect(equal('editors, user', 'editors,user')).toBe(false);
    expect(equal('Jane  Doe', 'Jane Doe')).toBe(false);
    expect(equal('Owner: Jane Doe', 'Jane Doe', undefined, 'contains')).toBe(true);
  });
});

describe('trimmed and case-insensitive', () => {
  it('collapse white space, and the second folds capitals', () => {
    expect(equal('Jane \n Doe', 'Jane Doe', 'trimmed')).toBe(true);
    expect(equal('jane doe', 'Jane Doe', 'trimmed')).toBe(false);
    expect(equal('JANE  doe', 'Jane Doe', 'case-insensitive')).toBe(true);
    expect(equal('Owner: JANE DOE (admin)', 'jane doe', 'case-insensitive', 'contains')).toBe(true);
  });
});

describe('number', () => {
  it('reads thousands separators and decimal marks as the page writes them', () => {
    expect(equal('1,234.50', '1234.5', 'number')).toBe(true);
    expect(equal('1.234,50', '1234.5', 'number')).toBe(true);
    expect(equal('1 234,50 €', '1234.5', 'number')).toBe(true);
    expect(equal("12'345", '12345', 'number')).toBe(true);
    expect(equal('$1,234,567', '1234567', 'number')).toBe(true);
    expect(equal('1,234.50', '1234.51', 'number')).toBe(false);
    expect(equal('−3', '-3', 'number')).toBe(true);
  });

  it('never takes a label or a second number for the value, unless the match is contains', () => {
    expect(equal('Total: 1,234', '1234', 'number')).toBe(false);
    expect(equal('12 of 143', '143', 'number')).toBe(false);
    expect(equal('Showing 1–20 of 143', '143', 'number', 'contains')).toBe(true);
    expect(equal('Showing 1–20 of 143', '144', 'number', 'contains')).toBe(false);
  });
});

describe('duration', () => {
  it('takes 1.5 hours shown as 1:30, 1h 30m, 90 min or 1.50 h', () => {
    for (const shown of [
      '1:30',
      '1:30 h',
      '01:30:00',
      '1h 30m',
      '1 hour 30 minutes',
      '90 min',
      '1.50 h',
      'PT1H30M',
    ])
      expect(equal(shown, '1.5', 'duration'), shown).toBe(true);
    expect(equal('1:45', '1.5', 'duration')).toBe(false);
    expect(equal('1:30', '1:30', 'duration')).toBe(true);
  });

  it('reads no bare number inside a sentence as hours', () => {
    expect(equal('Issue 2 took 1:30', '2', 'duration', 'contains')).toBe(false);
    expect(equal('Issue 2 took 1:30', '1.5', 'duration', 'contains')).toBe(true);
  });
});

describe('date', () => {
  it('takes 2026-12-07 in the formats pages write it in', () => {
    for (const shown of [
      '2026/12/07 03:21',
      '7 December 2026',
      'Dec 7, 2026',
      'Monday, 7 December 2026, at 05:28',
      'December 7th, 2026',
      '2026-12-07T03:21:00Z',
    ])
      expect(equal(shown, '2026-12-07', 'date'), shown).toBe(true);
    expect(equal('8 December 2026', '2026-12-07', 'date')).toBe(false);
  });

  it('never guesses which part of 07/12/2026 is the day, unless the order is declared', () => {
    expect(equal('07/12/2026', '2026-12-07', 'date')).toBe(false);
    expect(equal('07/12/2026', '2026-12-07', { date: { order: 'dmy' } })).toBe(true);
    expect(equal('07/12/2026', '2026-07-12', { date: { order: 'mdy' } })).toBe(true);
    expect(equal('07/12/2026', '2026-12-07', { date: { order: 'mdy' } })).toBe(false);
    // One part over 12 says itself which one is the day.
    expect(equal('25/12/2026', '2026-12-25', 'date')).toBe(true);
  });

  it('compares a time only when the expected value gave one', () => {
    expect(equal('7 December 2026, at 05:28', '2026-12-07 05:28', 'date')).toBe(true);
    expect(equal('7 December 2026, at 05:29', '2026-12-07 05:28', 'date')).toBe(false);
    expect(equal('7 December 2026, at 5:28 PM', '2026-12-07 17:28', 'date')).toBe(true);
    expect(equal('Last modified: 2026/12/07 03:21 by Admin', '2026-12-07', 'date', 'contains')).toBe(true);
  });
});

describe('list', () => {
  it('takes editors,user shown as "editors, user", in any order, and no item more or less', () => {
    const list: Normalise = { list: { separators: [','] } };
    expect(equal('editors, user', 'editors,user', list)).toBe(true);
    expect(equal('user, editors', 'editors,user', list)).toBe(true);
    expect(equal('editors, user, admins', 'editors,user', list)).toBe(false);
    expect(equal('editors, user, admins', 'editors,user', list, 'contains')).toBe(true);
    expect(equal('editors', 'editors,user', list)).toBe(false);
    expect(equal('a; b', 'b,a', { list: { separators: [',', ';'] } })).toBe(true);
  });
});

describe('comparable', () => {
  it('tells a value no replay could pass under its normalisation', () => {
    expect(comparable('1.5', 'duration')).toBe(true);
    expect(comparable('soon', 'duration')).toBe(false);
    expect(comparable('07/12/2026', 'date')).toBe(false);
    expect(comparable('07/12/2026', { date: { order: 'dmy' } })).toBe(true);
    expect(comparable('anything', undefined)).toBe(true);
  });
});
