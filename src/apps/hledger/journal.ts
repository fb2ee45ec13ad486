import { z } from 'zod';

/** An account name hledger reads unambiguously: single spaces only, no comment or amount characters. */
export const AccountSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(
    /^[A-Za-z][A-Za-z0-9_-]*( [A-Za-z0-9_-]+)*(:[A-Za-z0-9_-]+( [A-Za-z0-9_-]+)*)*$/,
    'colon-separated words, single spaces only (assets:checking)',
  )
  .describe('Colon-separated account name, e.g. expenses:office.');

export const AmountSchema = z
  .string()
  .regex(/^-?\d{1,12}(\.\d{1,4})?$/, 'a decimal such as 42.50 or -42.50')
  .describe('Decimal as text, negative for a credit: "42.50", "-42.50".');
export const CommoditySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, 'a three-letter currency code such as USD')
  .describe('Three-letter currency code, e.g. USD.');

export const PostingSchema = z.strictObject({
  account: AccountSchema,
  amount: AmountSchema,
  commodity: CommoditySchema,
});

/** An amount as hledger reports it, and an account's balance: the read tools' and the write's output. */
export const AmountOut = z.object({
  commodity: z.string().describe('Commodity, e.g. USD.'),
  quantity: z.string().describe('Decimal as text, e.g. "-42.50".'),
});
export const AccountBalanceOut = z.object({
  account: z.string().describe('Account name.'),
  amounts: z.array(AmountOut).describe('One amount per commodity.'),
});
export type Posting = z.infer<typeof PostingSchema>;

export interface NewTransaction {
  request_id: string;
  date: string;
  description: string;
  postings: Posting[];
}

const SCALE = 4;

function scaled(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.replace('-', '').split('.');
  const value = BigInt(whole) * 10n ** BigInt(SCALE) + BigInt(fraction.padEnd(SCALE, '0'));
  return amount.startsWith('-') ? -value : value;
}

/** Commodities whose postings do not sum to zero, with the difference; empty when it balances. */
export function imbalances(postings: readonly Posting[]): string[] {
  const sums = new Map<string, bigint>();
  for (const posting of postings)
    sums.set(posting.commodity, (sums.get(posting.commodity) ?? 0n) + scaled(posting.amount));
  return [...sums]
    .filter(([, sum]) => sum !== 0n)
    .map(([commodity, sum]) => `${commodity} off by ${formatScaled(sum)}`);
}

function formatScaled(value: bigint): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(SCALE + 1, '0');
  const text = `${digits.slice(0, -SCALE)}.${digits.slice(-SCALE)}`.replace(/\.?0+$/, '');
  return `${negative ? '-' : ''}${text}`;
}

/**
 * The journal entry for a transaction. The request id is an hledger tag in the entry's
 * comment, so both hledger (`tag:request_id=...`) and a person reading the file can see it.
 */
export function formatTransaction(transaction: NewTransaction): string {
  const width = Math.max(...transaction.postings.map((posting) => posting.account.length)) + 4;
  const lines = transaction.postings.map(
    (posting) => `    ${posting.account.padEnd(width)}${posting.amount} ${posting.commodity}`,
  );
  return `${transaction.date} ${transaction.description}  ; request_id:${transaction.request_id}\n${lines.join('\n')}\n`;
}

/** hledger's JSON amount (1.25: aquantity.decimalMantissa/decimalPlaces) as an exact decimal string. */
interface HledgerAmount {
  acommodity: string;
  aquantity: { decimalMantissa: number; decimalPlaces: number };
}

export interface Balance {
  commodity: string;
  quantity: string;
}

export function amountsOf(raw: unknown): Balance[] {
  const amounts = raw as HledgerAmount[];
  return amounts.map((amount) => {
    const { decimalMantissa, decimalPlaces } = amount.aquantity;
    const negative = decimalMantissa < 0;
    const digits = String(Math.abs(decimalMantissa)).padStart(decimalPlaces + 1, '0');
    const quantity =
      decimalPlaces > 0 ? `${digits.slice(0, -decimalPlaces)}.${digits.slice(-decimalPlaces)}` : digits;
    return { commodity: amount.acommodity, quantity: `${negative ? '-' : ''}${quantity}` };
  });
}

const BalanceReportSchema = z.tuple([
  z.array(z.tuple([z.string(), z.string(), z.number(), z.array(z.unknown())])),
  z.array(z.unknown()),
]);

export interface AccountBalance {
  account: string;
  amounts: Balance[];
}

/** Parses `hledger balance -O json`; a shape it was not built for throws (the caller maps it to SURFACE_CHANGED). */
export function parseBalanceReport(json: unknown): { accounts: AccountBalance[]; total: Balance[] } {
  const [rows, total] = BalanceReportSchema.parse(json);
  return {
    accounts: rows.map(([account, , , amounts]) => ({ account, amounts: amountsOf(amounts) })),
    total: amountsOf(total),
  };
}

const PrintedSchema = z.array(
  z.object({
    tdate: z.string(),
    tdescription: z.string(),
    tcomment: z.string(),
    tpostings: z.array(z.object({ paccount: z.string(), pamount: z.array(z.unknown()) })),
  }),
);

export interface FoundTransaction {
  date: string;
  description: string;
  postings: Array<{ account: string; amounts: Balance[] }>;
}

/** Parses `hledger print -O json`. */
export function parsePrinted(json: unknown): FoundTransaction[] {
  return PrintedSchema.parse(json).map((transaction) => ({
    date: transaction.tdate,
    description: transaction.tdescription,
    postings: transaction.tpostings.map((posting) => ({
      account: posting.paccount,
      amounts: amountsOf(posting.pamount),
    })),
  }));
}

/** A regex-safe hledger query for one exact value (query arguments are regular expressions). */
export function exactly(value: string): string {
  return `^${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
}
