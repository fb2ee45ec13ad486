import type { RowDataPacket } from 'mysql2/promise';
import type { MariaDb } from '../services/mariadb.js';
import { type Customer, type Order, SHOP_DATABASE } from './shop-data.js';

/** The data phpMyAdmin administers, read with SQL straight from MariaDB (never from its pages). */
export interface ShopState {
  /** Any read-only query on the shop database, with `?` placeholders. */
  query<T extends RowDataPacket = RowDataPacket>(sql: string, params?: unknown[]): Promise<T[]>;
  customer(id: number): Promise<Customer | undefined>;
  customerByEmail(email: string): Promise<Customer | undefined>;
  order(id: number): Promise<Order | undefined>;
  ordersOf(customerId: number): Promise<Order[]>;
  count(table: 'customers' | 'orders'): Promise<number>;
  /** Table names of the shop database (a dropped or created table shows here). */
  tables(): Promise<string[]>;
}

export function shopState(server: MariaDb): ShopState {
  const query = server.on(SHOP_DATABASE);
  const customers = (where: string, params: unknown[]) =>
    query<Customer & RowDataPacket>(`SELECT id, name, email, city FROM customers WHERE ${where}`, params);
  const orders = (where: string, params: unknown[]) =>
    query<Order & RowDataPacket>(
      `SELECT id, customer_id, product, quantity, CAST(total AS CHAR) AS total, status, note
         FROM orders WHERE ${where} ORDER BY id`,
      params,
    );
  const plain = <T extends object>(row: T | undefined): T | undefined => (row ? { ...row } : undefined);
  return {
    query,
    customer: async (id) => plain((await customers('id = ?', [id]))[0]),
    customerByEmail: async (email) => plain((await customers('email = ?', [email]))[0]),
    order: async (id) => plain((await orders('id = ?', [id]))[0]),
    ordersOf: async (customerId) =>
      (await orders('customer_id = ?', [customerId])).map((row) => ({ ...row })),
    count: async (table) => {
      const [row] = await query<{ n: number } & RowDataPacket>(`SELECT COUNT(*) AS n FROM \`${table}\``);
      return Number(row?.n ?? 0);
    },
    tables: async () =>
      (
        await query<{ name: string } & RowDataPacket>(
          'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name',
          [SHOP_DATABASE],
        )
      ).map((row) => row.name),
  };
}
