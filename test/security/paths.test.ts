import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitTools } from '../../src/apps/git/tools.js';
import { hledgerTools } from '../../src/apps/hledger/tools.js';
import { inventoryTools } from '../../src/apps/inventory/tools.js';
import { tools as officeTools } from '../../src/apps/office/tools.js';
import { payrollTools } from '../../src/apps/payroll/tools.js';
import type { AnyTool } from '../../src/contract/define-tool.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { ESCAPES, expectRefused, type Layout, layout, leakableText, SECRET_CANARY } from './support.js';

let at: Layout;
let runtime: Runtime;
const outsideIsEmptyButItsFile = () => expect(readdirSync(at.outside)).toEqual(['private.csv']);

beforeAll(() => {
  at = layout();
  runtime = new Runtime({ home: at.home, workingDir: at.work, tools: [...officeTools, ...gitTools()] });
  runtime.store.secrets.set('office_token', SECRET_CANARY);
});
afterAll(async () => {
  await runtime.close();
  at.remove();
});

/** Makes the tool's own output folder a link to the folder outside. */
function linkOutputFolder(tool: string): void {
  mkdirSync(runtime.outputDir, { recursive: true });
  symlinkSync(at.outside, join(runtime.outputDir, tool));
}

describe('convert_document reads only inside its roots', () => {
  it.each(ESCAPES)('refuses %s', async (_escape, path) => {
    expectRefused(await runtime.invoke('convert_document', { path: path(at), to: 'txt' }), at);
    outsideIsEmptyButItsFile();
  });

  it('refuses to write its output through a linked output folder', async () => {
    linkOutputFolder('convert_document');
    expectRefused(
      await runtime.invoke('convert_document', { path: join(at.work, 'doc.csv'), to: 'xlsx' }),
      at,
    );
    outsideIsEmptyButItsFile();
  });
});

describe('build_deck reads pictures only inside its roots', () => {
  it.each(ESCAPES)('refuses %s as a slide image', async (_escape, path) => {
    const outline = { title: 'Deck', slides: [{ title: 'One', image: path(at) }] };
    expectRefused(await runtime.invoke('build_deck', { outline }), at);
  });
});

describe('the office builders write only inside the output folder', () => {
  it.each(['build_workbook', 'build_report', 'build_deck'])(
    '%s refuses a linked output folder',
    async (name) => {
      linkOutputFolder(name);
      expectRefused(await runtime.invoke(name, runtime.registry.get(name)?.example), at);
      outsideIsEmptyButItsFile();
    },
  );
});

describe('git_log_read opens repositories only inside its roots', () => {
  it.each([
    ['a system folder', () => '/etc'],
    ["Lift's home", () => at.home],
    ['a folder outside', () => at.outside],
    ['a linked folder inside the root', () => join(at.work, 'linkdir')],
    ['a .. escape', () => `${at.work}/../outside`],
  ])('refuses %s', async (_name, path) => {
    const envelope = await runtime.invoke('git_log_read', { repo_path: path() });
    if (!('error' in envelope)) throw new Error(JSON.stringify(envelope));
    expect(envelope.error.code).toBe('BAD_INPUT');
  });
});

describe('a gated tool refuses a path outside its roots before anyone is asked to approve it', () => {
  it('git_branch_push', async () => {
    const envelope = await runtime.invoke('git_branch_push', {
      repo_path: join(at.work, 'linkdir'),
      branch: 'main',
      request_id: 'push-outside-1',
    });
    expectRefused(envelope, at);
    expect(runtime.store.approvals.list()).toEqual([]);
  });

  it('inventory_create_item', async () => {
    const lift = tools(inventoryTools({ dataFile: join(at.home, 'lift.db') }));
    const example = lift.registry.get('inventory_create_item')?.example;
    expectRefused(await lift.invoke('inventory_create_item', example), at);
    expect(lift.store.approvals.list()).toEqual([]);
  });
});

describe('tools whose paths come from settings stay inside their own folders', () => {
  let payroll: string;
  beforeAll(() => {
    payroll = join(at.work, 'payroll');
    for (const folder of ['done', 'errors', 'exports']) mkdirSync(join(payroll, folder), { recursive: true });
    // The inbox, where Lift writes, leads out of the payroll folder.
    symlinkSync(at.outside, join(payroll, 'inbox'));
  });

  it('payroll_import_hours refuses an inbox that links out of the payroll folder, writing nothing', async () => {
    const lift = tools(payrollTools({ root: payroll }));
    const envelope = await lift.invoke('payroll_import_hours', {
      request_id: 'hours-linked-inbox',
      entries: [{ employee_id: 'E0001', date: '2026-11-30', hours: 7.5 }],
    });
    expectRefused(envelope, at);
    outsideIsEmptyButItsFile();
  });

  it("payroll tools refuse a payroll folder inside Lift's home", async () => {
    const inHome = join(at.home, 'payroll');
    mkdirSync(join(inHome, 'exports'), { recursive: true });
    expectRefused(await tools(payrollTools({ root: inHome })).invoke('payroll_export_read', {}), at);
  });

  it('payroll_export_read never reads an export that is a link out of its folder', async () => {
    const root = join(at.work, 'payroll-linked-export');
    mkdirSync(join(root, 'exports'), { recursive: true });
    for (const folder of ['inbox', 'done', 'errors']) mkdirSync(join(root, folder));
    writeFileSync(
      join(at.outside, 'hours.csv'),
      'employee_id,work_date,hours,batch\nE0001,2026-11-30,90000,x\n',
    );
    symlinkSync(join(at.outside, 'hours.csv'), join(root, 'exports', 'hours-20261130T120000000Z.csv'));
    const envelope = await tools(payrollTools({ root })).invoke('payroll_export_read', {});
    if (!('error' in envelope)) throw new Error(`read through the link: ${JSON.stringify(envelope)}`);
    expect(envelope.error.code).toBe('NOT_FOUND');
    expect(leakableText(envelope)).not.toContain('90000');
  });

  it('the ledger tools refuse a journal that links out of its folder', async () => {
    const books = join(at.work, 'books');
    mkdirSync(books);
    symlinkSync(join(at.outside, 'private.csv'), join(books, 'main.journal'));
    const envelope = await tools(hledgerTools({ journal: join(books, 'main.journal') })).invoke(
      'ledger_balance_read',
      {},
    );
    expectRefused(envelope, at);
  });

  it("the ledger tools refuse a journal in Lift's home (the secret store)", async () => {
    const lift = tools(hledgerTools({ journal: join(at.home, 'secrets.json') }));
    expectRefused(await lift.invoke('ledger_balance_read', {}), at);
    expectRefused(await lift.invoke('ledger_transaction_find', { request_id: 'opening-1' }), at);
  });

  it("the inventory tools refuse a data file in Lift's home or linked out of its folder", async () => {
    const stock = join(at.work, 'stock');
    mkdirSync(stock);
    symlinkSync(join(at.outside, 'private.csv'), join(stock, 'inventory.json'));
    for (const dataFile of [join(at.home, 'lift.db'), join(stock, 'inventory.json')]) {
      expectRefused(await tools(inventoryTools({ dataFile })).invoke('inventory_find_items', {}), at);
    }
    expect(existsSync(join(at.outside, 'private.csv.lock'))).toBe(false);
  });
});

/** A second runtime on the same home and working folder, with other tools. */
const opened: Runtime[] = [];
function tools(list: AnyTool[]): Runtime {
  const other = new Runtime({ home: at.home, workingDir: at.work, tools: list });
  opened.push(other);
  return other;
}
afterAll(async () => {
  for (const other of opened) await other.close();
});
