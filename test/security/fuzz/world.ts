/**
 * Every kind of registered tool in one runtime, over real folders: the built-in tools (payroll and
 * hledger configured on real folders), the fixture tools of the server and agent tests, a
 * registered capability and the tools `lift api import` makes. And a snapshot of everything a
 * call could change, to prove that a refused call changed nothing.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { builtinTools } from '../../../src/builtin.js';
import { CapabilityStore } from '../../../src/capability/store.js';
import type { AnyTool } from '../../../src/contract/define-tool.js';
import { LIFT_VERSION } from '../../../src/contract/version.js';
import { addCapabilityTools } from '../../../src/replay/load.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { testTools } from '../../agent/tools.js';
import { widgetTools } from '../../rungs/api/widgets.js';
import { tools as serveFixtureTools } from '../../serve/fixtures/tools.js';
import { SECRET_CANARY } from '../support.js';

export interface World {
  runtime: Runtime;
  work: string;
  home: string;
  /** Tools the test suites define, as opposed to the ones Lift ships. */
  fixtureNames: Set<string>;
  snapshot(): string;
  close(): Promise<void>;
}

const JOURNAL = `2026-11-01 Opening balance  ; request_id:opening-1
    assets:checking      1000.00 USD
    equity:opening
`;

/** A capability as discovery compiles one: two steps over the back office, bound to one input. */
function capability() {
  const frame = ['Workspace'];
  const field = { frame, locator: { by: 'label', label: 'Member ID' } };
  return {
    schemaVersion: 1,
    name: 'member_lookup_fuzz',
    intent: 'Verify a member ID and return the savings balance',
    inputs: [{ name: 'memberId', type: 'string' }],
    outputs: [{ name: 'savingsBalance', type: 'number' }],
    preconditions: { origin: 'http://127.0.0.1:9', path: '/app', fingerprint: 'a'.repeat(64) },
    steps: [
      { version: 1, op: 'fill', target: field, value: { input: 'memberId' }, expect: { kind: 'none' } },
      {
        version: 1,
        op: 'read',
        target: { frame, locator: { by: 'cell', row: 'Savings', column: 'Balance' } },
        output: 'savingsBalance',
        expect: { kind: 'none' },
      },
    ],
    outcomes: ['found', 'not_found'],
    dialogs: [],
    checkpoint: {
      target: { frame, locator: { by: 'cell', row: '{{input.memberId}}', column: 'Member ID' } },
      equals: { input: 'memberId' },
      match: 'exact',
    },
    provenance: {
      explorer: 'scripted',
      runId: 'fuzz-1',
      createdAt: '2026-12-01T00:00:00.000Z',
      liftVersion: LIFT_VERSION,
    },
  };
}

function files(folder: string, skip: (path: string) => boolean): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (skip(path)) return [];
    if (entry.isDirectory()) return files(path, skip);
    return [path];
  });
}

export async function openWorld(): Promise<World> {
  const work = mkdtempSync(join(tmpdir(), 'lift-fuzz-'));
  const home = join(work, '.lift');
  const payroll = join(work, 'payroll');
  for (const folder of ['inbox', 'done', 'errors', 'exports'])
    mkdirSync(join(payroll, folder), { recursive: true });
  writeFileSync(
    join(payroll, 'exports', 'hours-20261130T120000000Z.csv'),
    'employee_id,work_date,hours,batch\n',
  );
  writeFileSync(join(work, 'books.journal'), JOURNAL);
  writeFileSync(join(work, 'report.csv'), 'Item,Quantity\nLanterns,12\n');

  const fixtures = [...serveFixtureTools, ...testTools, ...widgetTools('http://127.0.0.1:9')];
  const tools: AnyTool[] = [...(await builtinTools()), ...fixtures];
  const runtime = new Runtime({
    home,
    workingDir: work,
    env: { LIFT_SECRET_API_TOKEN: SECRET_CANARY },
    tools,
  });
  runtime.store.secrets.set('backoffice_password', SECRET_CANARY);
  void runtime.service('settings:payroll', () => ({ root: payroll }));
  void runtime.service('settings:hledger', () => ({ journal: join(work, 'books.journal') }));
  const saved = await new CapabilityStore(runtime.store.capabilities).save(capability());
  await runtime.store.registrations.register({
    name: saved.capability.name,
    revision: saved.revision,
    effectClass: 'reversible',
  });
  await addCapabilityTools(runtime);

  const db = runtime.store.db;
  const tables = () =>
    (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{
        name: string;
      }>
    )
      .map((row) => row.name)
      .filter((name) => !['runs', 'call_batches'].includes(name));
  // Run logs grow with every call, refused ones included; everything else must stay as it was.
  const skip = (path: string) => path === join(home, 'runs') || /lift\.db(-wal|-shm)?$/.test(path);
  return {
    runtime,
    work,
    home,
    fixtureNames: new Set([...fixtures.map((tool) => tool.name), saved.capability.name]),
    snapshot: () =>
      JSON.stringify({
        files: files(work, skip).map((path) => [
          relative(work, path),
          statSync(path).mode,
          createHash('sha256').update(readFileSync(path)).digest('hex'),
        ]),
        rows: tables().map((name) => [name, db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()]),
      }),
    close: async () => {
      await runtime.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
