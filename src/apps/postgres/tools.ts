import { z } from 'zod';
import { type AnyTool, defineTool } from '../../contract/define-tool.js';
import { parseCsvRows } from '../../rungs/cli/parsers.js';
import { runWrapped } from '../../rungs/cli/run-wrapped.js';

export interface PostgresSettings {
  host: string;
  port: number;
  user: string;
  database: string;
  /** Name of the secret holding the user's password (lift secrets set NAME). */
  passwordSecret: string;
  /** The psql program (default: psql on the path). */
  psql?: string;
}

/** Bytes of psql output kept; rows beyond it are cut and the envelope says so. */
const OUTPUT_CAP = 512 * 1024;

/** postgres_query: read-only SQL through psql, results parsed from its CSV output. */
export function postgresTools(settings: PostgresSettings): AnyTool[] {
  const queryTool = defineTool({
    name: 'postgres_query',
    title: 'Run a read-only SQL query',
    description: `Runs one read-only SQL query on PostgreSQL database ${settings.database} and returns the rows as objects (column name -> text). Writes are refused by the server.`,
    group: 'postgres',
    rung: 'cli',
    ladder: { ruledOut: ['api: no HTTP API in front of the database (fails "present")'] },
    input: z.strictObject({
      sql: z
        .string()
        .min(1)
        .max(10_000)
        // No program receives a NUL byte in an argument, and PostgreSQL text cannot hold one.
        .refine((sql) => !sql.includes('\0'), 'The SQL holds a NUL byte; remove it.')
        .describe('one SELECT (or WITH ... SELECT) statement'),
      max_rows: z.number().int().min(1).max(1_000).default(100).describe('Most rows to return.'),
    }),
    output: z.object({
      columns: z.array(z.string()).describe('Column names, in order.'),
      rows: z
        .array(z.record(z.string(), z.string()))
        .describe('Each row as column name -> text; NULL is "".'),
      row_count: z.number().int().describe('Rows the query returned, including any not listed.'),
    }),
    cap: { chars: 16_000, narrow: 'Select fewer columns, add a WHERE clause or lower max_rows.' },
    errors: {
      BAD_INPUT: {
        retry: 'no',
        hint: 'PostgreSQL rejected the SQL; the message names the problem. Fix the query.',
      },
      POLICY_BLOCKED: {
        retry: 'no',
        hint: 'The tool runs read-only transactions; use a write tool for changes.',
      },
      UPSTREAM_ERROR: { retry: 'yes', hint: 'The database server did not answer; try again shortly.' },
    },
    effect: { class: 'read' },
    timeout: { deadlineMs: 30_000 },
    session: {
      secret: settings.passwordSecret,
      onExpiry: 'AUTH_REQUIRED; a person stores the new password.',
    },
    example: { sql: 'SELECT sku, qty FROM stock WHERE qty < 10 ORDER BY sku', max_rows: 20 },
    run: async (input, ctx) => {
      const password = ctx.secret(settings.passwordSecret);
      const seconds = Math.max(1, Math.floor((ctx.deadline - Date.now()) / 1_000) - 1);
      const result = await runWrapped({
        program: settings.psql ?? 'psql',
        args: [
          '--no-psqlrc',
          '--csv',
          '--no-password',
          '--set=ON_ERROR_STOP=1',
          `--host=${settings.host}`,
          `--port=${settings.port}`,
          `--username=${settings.user}`,
          `--dbname=${settings.database}`,
          `--command=${input.sql}`,
        ],
        env: {
          PGPASSWORD: password,
          PGOPTIONS: `-c default_transaction_read_only=on -c statement_timeout=${seconds}s`,
          PGCONNECT_TIMEOUT: '5',
        },
        deadline: ctx.deadline,
        signal: ctx.signal,
        cap: OUTPUT_CAP,
        errorPatterns: [
          {
            pattern: /password authentication failed|no password supplied|authentication failed/i,
            code: 'AUTH_REQUIRED',
            message: `PostgreSQL refused the password stored as '${settings.passwordSecret}'.`,
            hint: `A person must store the right password: lift secrets set ${settings.passwordSecret}.`,
          },
          {
            pattern: /read-only transaction/,
            code: 'POLICY_BLOCKED',
            message: 'The query tried to write; this tool only reads.',
          },
          {
            pattern: /connection to server .* failed|could not connect/i,
            code: 'UPSTREAM_ERROR',
            message: 'PostgreSQL is not reachable.',
          },
          {
            pattern: /^ERROR:/m,
            code: 'BAD_INPUT',
            message: 'PostgreSQL rejected the query.',
            outcome: 'not_started',
          },
        ],
      });
      const parsed = parseCsvRows('psql', result.stdout);
      const all = parsed.value;
      const rows = all.slice(0, input.max_rows);
      const columns = Object.keys(all[0] ?? {});
      const truncated = parsed.truncated || all.length > rows.length;
      return {
        fields: { columns, rows, row_count: all.length },
        summary: `${all.length}${parsed.truncated ? '+' : ''} row(s)${truncated ? `, first ${rows.length} returned` : ''}`,
        verifiedBy: 'psql --csv output parsed (rung 2)',
        truncated,
        ...(truncated ? { narrow: 'Add a WHERE clause or a LIMIT, or select fewer columns.' } : {}),
      };
    },
  });
  return [queryTool];
}
