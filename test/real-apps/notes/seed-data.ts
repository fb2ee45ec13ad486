/**
 * The notes page's seed: notes whose bodies are CKEditor 4's HTML. Awkward on purpose: ids 2, 3
 * and 12 (the ids between are gaps, as after deletions); a note titled "Save", a word of the
 * edit form; titles with error words; the same author on several notes.
 */

export const NOTES_DATABASE = { name: 'notes', user: 'notes', password: 'nt-db-pass-1' } as const;
export const NOTES_ADMIN = { login: 'editor', password: 'nt-editor-pass-1', name: 'Erin Editor' } as const;
export const NOTES_USERS = [{ login: 'jdoe', password: 'nt-jdoe-pass-1', name: 'Jane Doe' }] as const;

export interface SeedNote {
  id: number;
  title: string;
  /** The HTML CKEditor saved. */
  body: string;
  author: string;
  updatedAt: string;
}

export const NOTES: SeedNote[] = [
  {
    id: 1,
    title: 'Welcome',
    body: '<p>Notes are edited in <strong>CKEditor 4</strong>.</p>',
    author: 'Erin Editor',
    updatedAt: '2026-11-01 09:00:00',
  },
  {
    id: 2,
    title: 'Contact form returns 500',
    body: '<p>Seen on Monday.</p><ul><li>Only with an attachment</li><li>Error 500 in the log</li></ul>',
    author: 'Jane Doe',
    updatedAt: '2026-11-02 10:30:00',
  },
  {
    id: 3,
    title: 'Cannot log in',
    body: '<p>Status: <em>Resolved</em>. The password reset works again.</p>',
    author: 'Jane Doe',
    updatedAt: '2026-11-03 14:15:00',
  },
  {
    id: 5,
    title: 'Save',
    body: '<p>A note titled like the button.</p>',
    author: 'Erin Editor',
    updatedAt: '2026-11-04 08:45:00',
  },
  {
    id: 12,
    title: 'Meeting 2',
    body: '<h2>Agenda</h2><ol><li>Budget</li><li>Hiring</li></ol>',
    author: 'Al Li',
    updatedAt: '2026-11-05 16:00:00',
  },
];
