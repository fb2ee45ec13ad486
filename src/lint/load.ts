import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { importModule, toolsFrom } from '../config/load.js';
import { parseYaml } from '../config/yaml.js';
import { fromJsonToolList, fromLiftTool, type LintTarget } from './normalize.js';

/** Reads tool definitions from a Lift module (.ts, .js, .mjs) or a JSON/YAML tool list. */
export async function loadLintTargets(file: string, cwd: string): Promise<LintTarget[]> {
  const path = resolve(cwd, file);
  if (/\.(json|ya?ml)$/i.test(path)) {
    const text = readFileSync(path, 'utf8');
    return fromJsonToolList(path.endsWith('.json') ? JSON.parse(text) : parseYaml(text));
  }
  return toolsFrom(await importModule(path)).map(fromLiftTool);
}

/** Splits a command line as a shell would for simple quoting ('...' and "..."). */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:\\.|[^"\\])*)"|'([^']*)'|(\S+)/g;
  for (const match of line.matchAll(pattern)) {
    words.push(match[1]?.replace(/\\(.)/g, '$1') ?? match[2] ?? match[3] ?? '');
  }
  return words;
}

/** Starts any stdio MCP server, lists its tools, and stops it. */
export async function loadMcpTargets(
  commandLine: string,
  cwd: string,
  timeoutMs = 20_000,
): Promise<LintTarget[]> {
  const [command, ...args] = splitCommandLine(commandLine);
  if (!command) throw new Error('--mcp needs a command line, e.g. --mcp "node server.js"');
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  // The server runs as the person's own command would from their shell: with their environment
  // (the SDK's default keeps only HOME, PATH and a few more, so a server read another home and
  // none of the settings or secrets that decide which tools it lists).
  const env = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const transport = new StdioClientTransport({ command, args, cwd, env, stderr: 'ignore' });
  const client = new Client({ name: 'lift-lint', version: '1' });
  const timer = setTimeout(() => void transport.close(), timeoutMs);
  try {
    await client.connect(transport, { timeout: timeoutMs });
    const tools: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return fromJsonToolList({ tools });
  } finally {
    clearTimeout(timer);
    await client.close();
  }
}
