import type { Connection, RowDataPacket } from 'mysql2/promise';

/**
 * A copy of a database taken right after seeding, and a restore that rewrites only what
 * changed. Reloading a dump would drop and create every table (MediaWiki has about sixty, and
 * InnoDB makes a file for each): seconds. Here an unchanged table costs a checksum, a changed
 * one a DELETE and an INSERT ... SELECT, and only a table whose definition changed (or that
 * was dropped, or added) is dropped and created again.
 */
export interface DatabaseSnapshot {
  restore(): Promise<void>;
}

interface TableState {
  definition: string;
  checksum: string;
  autoIncrement: number | null;
}

function identifier(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

/** SHOW CREATE TABLE without the AUTO_INCREMENT counter, which every insert moves. */
async function definitionOf(connection: Connection, database: string, table: string): Promise<string> {
  const [rows] = await connection.query<RowDataPacket[]>(
    `SHOW CREATE TABLE ${identifier(database)}.${identifier(table)}`,
  );
  return String(rows[0]?.['Create Table'] ?? '').replace(/ AUTO_INCREMENT=\d+/, '');
}

async function tablesOf(connection: Connection, database: string): Promise<Map<string, number | null>> {
  const [rows] = await connection.query<RowDataPacket[]>(
    `SELECT TABLE_NAME AS name, AUTO_INCREMENT AS next FROM information_schema.TABLES
      WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'`,
    [database],
  );
  return new Map(rows.map((row) => [String(row.name), row.next === null ? null : Number(row.next)]));
}

async function checksums(
  connection: Connection,
  database: string,
  tables: string[],
): Promise<Map<string, string>> {
  if (tables.length === 0) return new Map();
  const [rows] = await connection.query<RowDataPacket[]>(
    `CHECKSUM TABLE ${tables.map((table) => `${identifier(database)}.${identifier(table)}`).join(', ')}`,
  );
  return new Map(rows.map((row) => [String(row.Table).split('.').pop() ?? '', String(row.Checksum)]));
}

async function stateOf(connection: Connection, database: string): Promise<Map<string, TableState>> {
  const tables = await tablesOf(connection, database);
  const sums = await checksums(connection, database, [...tables.keys()]);
  const state = new Map<string, TableState>();
  for (const [table, autoIncrement] of tables) {
    state.set(table, {
      definition: await definitionOf(connection, database, table),
      checksum: sums.get(table) ?? '',
      autoIncrement,
    });
  }
  return state;
}

/** Copies every table of `database` into `${database}__seed` on the same server. */
export async function snapshotDatabase(connection: Connection, database: string): Promise<DatabaseSnapshot> {
  const seed = `${database}__seed`;
  const live = identifier(database);
  const copy = identifier(seed);
  const seeded = await stateOf(connection, database);
  await connection.query(`DROP DATABASE IF EXISTS ${copy}`);
  await connection.query(`CREATE DATABASE ${copy}`);
  for (const table of seeded.keys()) {
    const name = identifier(table);
    await connection.query(`CREATE TABLE ${copy}.${name} LIKE ${live}.${name}`);
    await connection.query(`INSERT INTO ${copy}.${name} SELECT * FROM ${live}.${name}`);
  }
  const refill = async (table: string) => {
    const name = identifier(table);
    await connection.query(`DELETE FROM ${live}.${name}`);
    await connection.query(`INSERT INTO ${live}.${name} SELECT * FROM ${copy}.${name}`);
  };
  return {
    restore: async () => {
      const now = await tablesOf(connection, database);
      await connection.query('SET SESSION foreign_key_checks = 0');
      try {
        for (const table of now.keys()) {
          if (!seeded.has(table)) await connection.query(`DROP TABLE ${live}.${identifier(table)}`);
        }
        const present = [...seeded.keys()].filter((table) => now.has(table));
        const sums = await checksums(connection, database, present);
        for (const [table, state] of seeded) {
          const name = identifier(table);
          const changedShape =
            !now.has(table) || (await definitionOf(connection, database, table)) !== state.definition;
          if (changedShape) {
            await connection.query(`DROP TABLE IF EXISTS ${live}.${name}`);
            await connection.query(state.definition.replace(/^CREATE TABLE /, `CREATE TABLE ${live}.`));
            await refill(table);
          } else if (sums.get(table) !== state.checksum) {
            await refill(table);
          }
          // New rows deleted again still moved the counter; ids after a reset match a fresh seed's.
          if (state.autoIncrement !== null && (changedShape || now.get(table) !== state.autoIncrement)) {
            await connection.query(`ALTER TABLE ${live}.${name} AUTO_INCREMENT = ${state.autoIncrement}`);
          }
        }
      } finally {
        await connection.query('SET SESSION foreign_key_checks = 1');
      }
    },
  };
}
