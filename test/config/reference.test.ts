import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hledgerTools } from '../../src/apps/hledger/tools.js';
import { payrollTools } from '../../src/apps/payroll/tools.js';
import { ConfigSchema, loadConfig } from '../../src/config/load.js';
import { documentedKeys } from '../../src/config/reference-page.js';
import {
  CONFIG_PAGE_FILE,
  CONFIG_SCHEMA_FILE,
  ConfigReferenceSchema,
  configJsonSchema,
  configJsonSchemaText,
  configPage,
} from '../../src/config-reference.js';
import type { ErrorEnvelope } from '../../src/contract/envelope.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { tempDir } from '../support/temp.js';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the lift.config reference', () => {
  it('docs/config.md and docs/lift.config.schema.json are what npm run docs:config writes from the schema', () => {
    expect(read(CONFIG_SCHEMA_FILE), `${CONFIG_SCHEMA_FILE} is stale: run npm run docs:config`).toBe(
      configJsonSchemaText(),
    );
    expect(read(CONFIG_PAGE_FILE), `${CONFIG_PAGE_FILE} is stale: run npm run docs:config`).toBe(
      configPage(),
    );
  });

  it("describes every key, each family's settings included, and gives every top-level key a section", () => {
    const keys = documentedKeys(configJsonSchema());
    const undescribed = keys
      .filter((key) => !String(key.schema.description ?? '').trim())
      .map((key) => key.path);
    expect(undescribed).toEqual([]);
    for (const path of ['gates', 'store.postgres', 'home', 'roots', 'serve.caps', 'settings.hledger.journal'])
      expect(keys.map((key) => key.path)).toContain(path);
    const page = configPage();
    for (const key of Object.keys(ConfigSchema.shape)) expect(page).toContain(`## \`${key}\``);
    for (const family of ['backoffice', 'chat', 'email', 'hledger', 'payroll', 'services', '<family>'])
      expect(page).toContain(`### \`settings.${family}\``);
  });

  it('the README points to it', () => {
    expect(read('README.md')).toContain('docs/config.md');
  });

  it("the page's example, $schema and all, is a config Lift loads and the reference accepts", async () => {
    const example = /```json\n([\s\S]*?)```/.exec(configPage())?.[1];
    const dir = tempDir('lift-config-reference-');
    try {
      writeFileSync(join(dir.path, 'lift.config.json'), example!);
      const config = await loadConfig(dir.path, {});
      expect(config.settings.hledger).toEqual({ journal: '/srv/books/main.journal' });
      expect(ConfigReferenceSchema.safeParse(JSON.parse(example!)).success).toBe(true);
    } finally {
      dir.remove();
    }
  });
});

describe('a family that is not configured', () => {
  it('names the lift.config key to set, not a factory to call', async () => {
    const home = tempDir('lift-config-hints-');
    const runtime = new Runtime({ home: home.path, tools: [...hledgerTools(), ...payrollTools()] });
    try {
      const ledger = (await runtime.invoke('ledger_balance_read', {})) as ErrorEnvelope;
      expect(ledger.error).toMatchObject({ code: 'NOT_CONFIGURED' });
      expect(ledger.error.hint).toContain('settings.hledger.journal');
      const payroll = (await runtime.invoke('payroll_export_read', {})) as ErrorEnvelope;
      expect(payroll.error).toMatchObject({ code: 'NOT_CONFIGURED' });
      expect(payroll.error.hint).toContain('settings.payroll.root');
      for (const hint of [ledger.error.hint, payroll.error.hint]) expect(hint).not.toMatch(/Tools\(/);
      // Settings that are there but wrong say what is wrong with them, at their key.
      void runtime.service('settings:hledger', () => ({ journal: 42 }));
      const wrong = (await runtime.invoke('ledger_balance_read', {})) as ErrorEnvelope;
      expect(wrong.error.code).toBe('NOT_CONFIGURED');
      expect(wrong.error.message).toContain('settings.hledger');
      expect(wrong.error.message).toContain('journal');
    } finally {
      await runtime.close();
      home.remove();
    }
  });
});
