/**
 * The `shop` database that phpMyAdmin administers: customers, and orders that refer to them
 * by a foreign key. `orders` has more rows than phpMyAdmin shows on one page (25). Awkward
 * values on purpose: id 2, a customer named like phpMyAdmin's "Copy" action, notes with
 * error words, a status ("new") that is also a word of the UI.
 */

export interface Customer {
  id: number;
  name: string;
  email: string;
  city: string;
}

export interface Order {
  id: number;
  customer_id: number;
  product: string;
  quantity: number;
  total: string;
  status: 'new' | 'paid' | 'shipped' | 'cancelled';
  note: string | null;
}

export const SHOP_DATABASE = 'shop';
export const SHOP_LOGIN = { user: 'shopadmin', password: 'pma-shop-pass-1' } as const;

export const CUSTOMERS: Customer[] = [
  { id: 1, name: 'Acme Corporation', email: 'orders@acme.test', city: 'Lyon' },
  { id: 2, name: 'Copy Center Ltd', email: 'hello@copycenter.test', city: 'Leeds' },
  { id: 3, name: 'Jane Doe', email: 'jane.doe@mail.test', city: 'Porto' },
  { id: 4, name: 'Northwind Traders', email: 'buy@northwind.test', city: 'Seattle' },
  { id: 5, name: 'Öko Hof Müller', email: 'info@oekohof.test', city: 'Köln' },
  { id: 6, name: 'Bob Stone', email: 'bob@stone.test', city: 'Austin' },
  { id: 7, name: 'Li Wei', email: 'li.wei@mail.test', city: 'Suzhou' },
  { id: 8, name: 'Global Parts SA', email: 'parts@global.test', city: 'Madrid' },
  { id: 9, name: 'Al', email: 'al@mail.test', city: 'Oslo' },
  { id: 10, name: 'Blue Harbor Inn', email: 'desk@blueharbor.test', city: 'Halifax' },
  { id: 11, name: 'Quick Print', email: 'jobs@quickprint.test', city: 'Leeds' },
  { id: 12, name: 'Zeta Labs', email: 'lab@zeta.test', city: 'Zürich' },
];

const PRODUCTS: Array<[string, number]> = [
  ['Paper A4 (500 sheets)', 4.9],
  ['Toner black', 59],
  ['Stapler', 12.5],
  ['Desk lamp', 34],
  ['Monitor arm', 89],
  ['USB-C cable', 9.99],
];

const STATUSES: Order['status'][] = ['new', 'paid', 'shipped', 'shipped', 'cancelled'];

const NOTES: Record<number, string> = {
  3: 'Contact form returns 500 when the customer uploads the purchase order',
  4: 'Cannot log in to the portal; order taken by phone',
  17: 'Deliver to the back door',
};

/** 60 orders, spread over the customers in a fixed order (no randomness: reruns see the same rows). */
export const ORDERS: Order[] = Array.from({ length: 60 }, (_, index) => {
  const id = index + 1;
  const [product, price] = PRODUCTS[(index * 5) % PRODUCTS.length]!;
  const quantity = (index % 7) + 1;
  return {
    id,
    customer_id: ((index * 7) % CUSTOMERS.length) + 1,
    product,
    quantity,
    total: (price * quantity).toFixed(2),
    status: STATUSES[index % STATUSES.length]!,
    note: NOTES[id] ?? null,
  };
});

function literal(value: string | number | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

export function shopSql(): string {
  const customers = CUSTOMERS.map((c) => `(${[c.id, c.name, c.email, c.city].map(literal).join(', ')})`);
  const orders = ORDERS.map(
    (o) =>
      `(${[o.id, o.customer_id, o.product, o.quantity, o.total, o.status, o.note].map(literal).join(', ')})`,
  );
  return `
CREATE TABLE customers (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name VARCHAR(120) NOT NULL,
  email VARCHAR(160) NOT NULL UNIQUE,
  city VARCHAR(80) NOT NULL,
  created_at TIMESTAMP NOT NULL DEFAULT '2026-11-01 09:00:00'
) ENGINE=InnoDB;
CREATE TABLE orders (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  customer_id INT UNSIGNED NOT NULL,
  product VARCHAR(120) NOT NULL,
  quantity INT UNSIGNED NOT NULL DEFAULT 1,
  total DECIMAL(10,2) NOT NULL,
  status ENUM('new','paid','shipped','cancelled') NOT NULL DEFAULT 'new',
  note VARCHAR(255) NULL,
  CONSTRAINT fk_orders_customer FOREIGN KEY (customer_id) REFERENCES customers (id)
) ENGINE=InnoDB;
INSERT INTO customers (id, name, email, city) VALUES
${customers.join(',\n')};
INSERT INTO orders (id, customer_id, product, quantity, total, status, note) VALUES
${orders.join(',\n')};
`;
}
