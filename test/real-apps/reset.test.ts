import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopSql } from './phpmyadmin/shop-data.js';
import { type MariaDb, startMariaDb } from './services/mariadb.js';

let server: MariaDb;

beforeAll(async () => {
  server = await startMariaDb();
  await server.createDatabase('shop', 'shopadmin', 'reset-test-pass');
  await server.admin(shopSql(), 'shop');
});

afterAll(async () => {
  await server?.stop();
});

async function fingerprint(): Promise<string> {
  const tables = await server.admin('SHOW TABLES FROM shop');
  const parts = [tables];
  for (const table of tables.trim().split('\n')) {
    parts.push(await server.admin(`SHOW CREATE TABLE shop.${table}`));
    parts.push(await server.admin(`SELECT * FROM shop.${table} ORDER BY id`));
  }
  return parts.join('\n');
}

describe('the bed reset', () => {
  it('undoes changed rows, a dropped table, an added table and an altered column, and resets the ids', async () => {
    const snapshot = await server.snapshot('shop');
    const seeded = await fingerprint();
    await server.admin(
      `UPDATE orders SET status = 'cancelled' WHERE id = 2;
       DELETE FROM orders WHERE customer_id = 3;
       INSERT INTO customers (name, email, city) VALUES ('Temp', 'temp@bed.test', 'Nowhere');
       ALTER TABLE customers ADD COLUMN phone VARCHAR(20);
       CREATE TABLE notes (id INT PRIMARY KEY);
       SET foreign_key_checks = 0; DROP TABLE orders;`,
      'shop',
    );
    expect(await fingerprint()).not.toBe(seeded);

    await snapshot.restore();

    expect(await fingerprint()).toBe(seeded);
    await server.admin(
      "INSERT INTO customers (name, email, city) VALUES ('Next', 'next@bed.test', 'Graz')",
      'shop',
    );
    expect(
      (await server.admin("SELECT id FROM customers WHERE email = 'next@bed.test'", 'shop')).trim(),
    ).toBe('13');
    // The foreign key came back with the table.
    await expect(
      server.admin('INSERT INTO orders (customer_id, product, total) VALUES (999, "x", 1)', 'shop'),
    ).rejects.toThrow(/foreign key constraint fails/);
  });
});
