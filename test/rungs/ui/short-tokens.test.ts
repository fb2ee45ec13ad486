import { describe, expect, it } from 'vitest';
import { parameteriseText } from '../../../src/discover/compile.js';
import { Redactor } from '../../../src/rungs/ui/redact.js';

/**
 * A short bound value (three characters or fewer) is everywhere on a page: a heading level,
 * a time, a version, a count. It is the bound value only where it stands alone: the whole
 * text, a cell, a URL segment or parameter, after punctuation ("Re: 2"), right after a
 * reference sign ("#3 was closed"), never beside a word across a space ("Heading 3",
 * "3 items") or joined into a number ("12:30", "v2.3"). The observation (redaction) and the compiler (placeholders) agree.
 */
const CASES: Array<{ value: string; text: string; replaced: string | false }> = [
  // Beside a word: a label's number or a count, not the record.
  { value: '3', text: 'Heading 3', replaced: false },
  { value: '3', text: '3 items', replaced: false },
  { value: '2', text: 'Page 2 of 5', replaced: false },
  { value: 'al', text: 'Add al to the list', replaced: false },
  // Joined into one number or word.
  { value: '12', text: '12:30', replaced: false },
  { value: '30', text: 'at 12:30', replaced: false },
  { value: '3', text: 'v2.3', replaced: false },
  { value: '2', text: 'v2.3', replaced: false },
  { value: '3', text: '1,3 kg', replaced: false },
  { value: '12', text: '12/03/2024', replaced: false },
  { value: '3', text: 'Heading_3', replaced: false },
  // Standing alone: the whole text, a reference, a parameter, a segment, after punctuation.
  { value: '3', text: '3', replaced: '⟦input:v⟧' },
  { value: '3', text: '#3', replaced: '#⟦input:v⟧' },
  { value: '3', text: 'Issue #3', replaced: 'Issue #⟦input:v⟧' },
  { value: '3', text: 'Issue #3 was closed', replaced: 'Issue #⟦input:v⟧ was closed' },
  { value: '3', text: 'id=3', replaced: 'id=⟦input:v⟧' },
  {
    value: '3',
    text: '/index.php?title=Servers&id=3&action=edit',
    replaced: '/index.php?title=Servers&id=⟦input:v⟧&action=edit',
  },
  { value: '12', text: '/orders/12/edit', replaced: '/orders/⟦input:v⟧/edit' },
  { value: '2', text: 'Re: 2', replaced: 'Re: ⟦input:v⟧' },
  { value: '2', text: 'ids: 2, 3, 12', replaced: 'ids: ⟦input:v⟧, 3, 12' },
  { value: 'al', text: 'Howdy, al.', replaced: 'Howdy, ⟦input:v⟧.' },
  { value: '3', text: '(3)', replaced: '(⟦input:v⟧)' },
  // A longer value is specific enough to be the record even beside words.
  { value: 'Tools', text: 'Edit Tools now', replaced: 'Edit ⟦input:v⟧ now' },
  { value: '1002', text: 'Order 1002 shipped', replaced: 'Order ⟦input:v⟧ shipped' },
];

describe('a short bound value is a whole token only where it stands alone', () => {
  it.each(CASES)('$value in "$text"', ({ value, text, replaced }) => {
    const redactor = new Redactor({ inputs: { v: value } });
    const expected = replaced === false ? text : replaced;
    expect(redactor.text(text)).toBe(expected);
    // The compiler turns the same tokens into placeholders, and no others.
    expect(parameteriseText(text, { v: value })).toBe(expected.replaceAll('⟦input:v⟧', '{{input.v}}'));
  });

  it('is found alone in a table cell and in an observation line that quotes it', () => {
    const redactor = new Redactor({ inputs: { id: '3' } });
    expect(redactor.cell('Id', '3')).toBe('⟦input:id⟧');
    expect(redactor.text('[e12] cell "3"')).toBe('[e12] cell "⟦input:id⟧"');
    expect(redactor.text('[e14] button "Heading 3"')).toBe('[e14] button "Heading 3"');
  });
});
