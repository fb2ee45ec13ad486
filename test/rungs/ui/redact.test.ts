import { describe, expect, it } from 'vitest';
import { Redactor } from '../../../src/rungs/ui/redact.js';

describe('redaction of bound inputs', () => {
  it('binds and redacts an input of any length, even one character', () => {
    const redactor = new Redactor({ inputs: { issueNumber: '2' } });
    expect(redactor.inputValue('issueNumber')).toBe('2');
    expect(redactor.text('Issue #2 was closed')).toBe('Issue #⟦input:issueNumber⟧ was closed');
    // Beside a word across a space, a short value is the page's own number (short-tokens.test.ts).
    expect(redactor.text('Issue 2 was closed')).toBe('Issue 2 was closed');
  });

  it('replaces whole values and tokens, never inside other words, labels or URL segments', () => {
    const redactor = new Redactor({ inputs: { group: 'user', id: '2' } });
    expect(redactor.text('User Manager')).toBe('User Manager');
    expect(redactor.text('Select user')).toBe('Select ⟦input:group⟧');
    expect(redactor.text('Users')).toBe('Users');
    expect(redactor.text('index.php?page=usermanager')).toBe('index.php?page=usermanager');
    expect(redactor.text('ids 12, 23, 2')).toBe('ids 12, 23, ⟦input:id⟧');
  });

  it('leaves a value joined to a word by a hyphen, dot or at sign alone, and masks a whole URL segment', () => {
    const redactor = new Redactor({ inputs: { login: 'admin' } });
    expect(redactor.text('/wp-admin/users.php')).toBe('/wp-admin/users.php');
    expect(redactor.text('admin.php?page=x')).toBe('admin.php?page=x');
    expect(redactor.text('admin@example.org')).toBe('admin@example.org');
    expect(redactor.text('Howdy, admin. Log out')).toBe('Howdy, ⟦input:login⟧. Log out');
    expect(redactor.text('/users/admin/edit')).toBe('/users/⟦input:login⟧/edit');
  });

  it('leaves a placeholder whole when a value equals another input name', () => {
    const redactor = new Redactor({ inputs: { title: 'Tools', name: 'title' } });
    expect(redactor.text('Tools title')).toBe('⟦input:title⟧ ⟦input:name⟧');
  });

  it('still masks a secret wherever it appears, inside a word too', () => {
    const redactor = new Redactor({ secrets: ['hunter2'] });
    expect(redactor.text('xxhunter2xx')).toBe('xx⟦secret⟧xx');
  });
});
