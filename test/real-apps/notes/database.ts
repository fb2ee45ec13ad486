import type { RowDataPacket } from 'mysql2/promise';
import { NOTES, NOTES_ADMIN, NOTES_USERS } from './seed-data.js';

type Query = <T extends RowDataPacket = RowDataPacket>(sql: string, params?: unknown[]) => Promise<T[]>;

export interface Note {
  id: number;
  title: string;
  /** The HTML the editor saved. */
  body: string;
  author: string;
}

/** The notes as stored, read with SQL (never from the page). */
export interface NotesState {
  note(id: number): Promise<Note | undefined>;
  noteByTitle(title: string): Promise<Note | undefined>;
  notes(): Promise<Note[]>;
}

export function notesSchema(passwordHashes: Record<string, string>): string {
  const literal = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  const users = [NOTES_ADMIN, ...NOTES_USERS].map(
    (user) => `(${literal(user.login)}, ${literal(user.name)}, ${literal(passwordHashes[user.login]!)})`,
  );
  const notes = NOTES.map(
    (note) =>
      `(${note.id}, ${literal(note.title)}, ${literal(note.body)}, ${literal(note.author)}, ${literal(note.updatedAt)})`,
  );
  return `
CREATE TABLE users (
  login VARCHAR(60) NOT NULL PRIMARY KEY,
  name VARCHAR(120) NOT NULL,
  password_hash VARCHAR(255) NOT NULL
) ENGINE=InnoDB;
CREATE TABLE notes (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  title VARCHAR(200) NOT NULL,
  body MEDIUMTEXT NOT NULL,
  author VARCHAR(120) NOT NULL,
  updated_at DATETIME NOT NULL
) ENGINE=InnoDB;
INSERT INTO users (login, name, password_hash) VALUES
${users.join(',\n')};
INSERT INTO notes (id, title, body, author, updated_at) VALUES
${notes.join(',\n')};
`;
}

export function notesState(query: Query): NotesState {
  const notes = async (where: string, params: unknown[]) =>
    (await query(`SELECT id, title, body, author FROM notes ${where} ORDER BY id`, params)).map((row) => ({
      id: Number(row.id),
      title: String(row.title),
      body: String(row.body),
      author: String(row.author),
    }));
  return {
    note: async (id) => (await notes('WHERE id = ?', [id]))[0],
    noteByTitle: async (title) => (await notes('WHERE title = ?', [title]))[0],
    notes: () => notes('', []),
  };
}
