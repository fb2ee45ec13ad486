import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { LIFT_BIN, lift } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

/**
 * `lift call` is never silent on a long call while a person watches: at a terminal (a real
 * pseudo-terminal, through util-linux `script`) each step goes to stderr as it happens; piped,
 * stderr stays quiet unless LIFT_LOG=debug asks for every event. stdout is the envelope alone.
 */
const dir = tempDir('lift-call-progress-');
afterAll(() => dir.remove());
const env = { LIFT_HOME: join(dir.path, 'home') };

/** Runs a shell command line under a pseudo-terminal; returns what the terminal showed. */
function atTerminal(
  command: string,
  extraEnv: Record<string, string>,
): Promise<{ code: number | null; shown: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: dir.path,
      env: { ...process.env, ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let shown = '';
    child.stdout.on('data', (chunk: Buffer) => {
      shown += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} did not finish in 170 s:\n${shown}`));
    }, 170_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, shown });
    });
  });
}

describe('lift call progress', () => {
  it('says at a terminal what build_deck is doing while LibreOffice renders, before the envelope', {
    timeout: 180_000,
  }, async () => {
    const input = JSON.stringify({
      outline: { title: 'Progress at a terminal', slides: [{ title: 'One' }] },
    });
    const envelopeFile = join(dir.path, 'envelope.json');
    // stdout to a file, stderr to the terminal: what a person sees while the call runs.
    const { code, shown } = await atTerminal(
      `"${process.execPath}" "${LIFT_BIN}" call build_deck --input "$DECK_INPUT" > "${envelopeFile}"`,
      { DECK_INPUT: input },
    );
    const envelope = JSON.parse(readFileSync(envelopeFile, 'utf8')) as { ok: boolean };
    expect(envelope.ok, shown).toBe(true);
    expect(code).toBe(0);
    const lines = shown.split(/\r?\n/).filter(Boolean);
    expect(
      lines.some((line) => /^build_deck \d+\.\d s {2}Wrote a deck of 1 slide$/.test(line)),
      shown,
    ).toBe(true);
    expect(
      lines.some((line) => /^build_deck \d+\.\d s {2}LibreOffice renders the deck$/.test(line)),
      shown,
    ).toBe(true);
    expect(
      lines.some((line) => /^build_deck \d+\.\d s {2}LibreOffice finished the deck in \d+\.\d s$/.test(line)),
      shown,
    ).toBe(true);
    // The stages every call passes in a blink are left out at a terminal.
    expect(shown).not.toContain('input-validated');
    expect(shown).not.toContain('Starting build_deck');
  });

  it('keeps a piped stderr quiet, and with LIFT_LOG=debug shows every event of the call', async () => {
    const input = JSON.stringify({ sku: 'A-100' });
    const piped = await lift(['call', 'inventory_find_items', '--input', input], { cwd: dir.path, env });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    expect(JSON.parse(piped.stdout)).toMatchObject({ ok: true, tool: 'inventory_find_items' });

    const debug = await lift(['call', 'inventory_find_items', '--input', input], {
      cwd: dir.path,
      env: { ...env, LIFT_LOG: 'debug' },
    });
    expect(debug.code).toBe(0);
    for (const type of ['call-start', 'input-validated', 'gate-passed', 'call-end'])
      expect(debug.stderr).toMatch(
        new RegExp(`^lift debug \\d+\\.\\d{3} s {2}inventory_find_items: ${type}`, 'm'),
      );
    expect(JSON.parse(debug.stdout)).toMatchObject({ ok: true });
  });

  it('with LIFT_LOG=debug, lift serve --stdio shows each call on stderr while stdout stays protocol only', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LIFT_BIN, 'serve', '--stdio'],
      cwd: dir.path,
      env: { ...env, LIFT_LOG: 'debug' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'debug-log', version: '1.0.0' });
    try {
      await client.connect(transport, { timeout: 60_000 });
      const result = await client.callTool({ name: 'inventory_find_items', arguments: { sku: 'A-100' } });
      expect(result.isError).toBe(false);
    } finally {
      await client.close();
    }
    expect(stderr).toMatch(/^lift debug \d+\.\d{3} s {2}inventory_find_items: call-start/m);
    expect(stderr).toMatch(
      /^lift debug \d+\.\d{3} s {2}inventory_find_items: call-end: tool inventory_find_items, ok true/m,
    );
  });
});
