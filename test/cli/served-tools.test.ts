import { afterAll, describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/builtin.js';
import { UsageError } from '../../src/cli/args.js';
import { capsOf, ServedTools } from '../../src/cli/served-tools.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir();
const runtime = new Runtime({ home: dir.path, tools: await builtinTools() });
afterAll(async () => {
  await runtime.close();
  dir.remove();
});

describe('--caps and serve.caps', () => {
  it('take comma-separated and repeated names, once each, the flag before the config', () => {
    expect(capsOf(['office, ui', 'desktop,office'], { serve: { caps: ['git'] } })).toEqual({
      families: ['office', 'ui', 'desktop'],
      from: '--caps',
    });
    expect(capsOf([], { serve: { caps: ['git', 'git'] } })).toEqual({
      families: ['git'],
      from: 'serve.caps',
    });
    expect(capsOf([], { serve: {} })).toBeUndefined();
  });

  it('--caps that names nothing is a usage error', () => {
    expect(() => capsOf([' , '], { serve: {} })).toThrow(UsageError);
    expect(() => capsOf([' , '], { serve: {} })).toThrow(/^--caps names no family\. Families: agent, /);
  });

  it('lift serve warns of a chosen family that serves nothing here, and says why', () => {
    const served = new ServedTools(runtime, { settings: {} }, capsOf(['email,ui,office'], { serve: {} }));
    expect(served.warnings(runtime.registry.list())).toEqual([
      '--caps names email, which is not configured (lift.config sets no settings.email); its tools are not served. To serve them: set "settings": { "email": { "account": { "address": "me@example.org" }, "imap": { "host": "..." }, "smtp": { "host": "..." } } } in lift.config.json, then lift secrets set email_password.',
      '--caps names ui, which has no tools here.',
    ]);
  });
});
