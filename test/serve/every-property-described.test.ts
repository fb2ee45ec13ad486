import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/builtin.js';
import type { JsonSchema } from '../../src/contract/json-schema.js';
import { approvalStatusTool } from '../../src/serve/approval-status.js';
import { toMcpTool } from '../../src/serve/to-mcp-tools.js';

/** The schema a local `$ref` ('#/$defs/fields') points at, within one tool's schema. */
function target(root: JsonSchema, ref: string): JsonSchema | undefined {
  let node: unknown = root;
  for (const part of ref.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    node = (node as Record<string, unknown> | undefined)?.[part];
  }
  return node as JsonSchema | undefined;
}

/**
 * A property a model can read something about: a description of its own, on what its `$ref`
 * names, or on every branch of a union that is not null (`.describe()` then `.nullable()`).
 */
function described(schema: JsonSchema, root: JsonSchema): boolean {
  if (schema.description) return true;
  if (typeof schema.$ref === 'string') {
    const named = target(root, schema.$ref);
    return named !== undefined && described(named, root);
  }
  const branches = (schema.anyOf ?? schema.oneOf)?.filter((branch) => branch.type !== 'null');
  return branches !== undefined && branches.length > 0 && branches.every((branch) => described(branch, root));
}

/**
 * Every property with nothing said about it, by path (`build_report.input.report.sections[].heading`):
 * nested objects, array items, union branches, records and `$defs` included. A conditional
 * (`if`/`then`/`else`) only narrows the properties of the object around it, so a name described
 * there is described in the conditional too.
 */
function undescribed(root: JsonSchema, path: string): string[] {
  const found: string[] = [];
  const visit = (schema: unknown, at: string, around: Record<string, JsonSchema> = {}): void => {
    if (!schema || typeof schema !== 'object') return;
    const node = schema as JsonSchema;
    const properties = node.properties ?? {};
    for (const [name, property] of Object.entries(properties)) {
      const outer = around[name];
      if (!described(property, root) && !(outer && described(outer, root))) found.push(`${at}.${name}`);
      visit(property, `${at}.${name}`);
    }
    const items = node.items as unknown;
    if (Array.isArray(items)) {
      for (const [index, item] of items.entries()) visit(item, `${at}[${index}]`);
    } else visit(items, `${at}[]`);
    for (const key of ['prefixItems', 'anyOf', 'oneOf', 'allOf'] as const) {
      const branches = node[key];
      for (const [index, branch] of (Array.isArray(branches) ? branches : []).entries()) {
        visit(branch, `${at}|${index}`);
      }
    }
    if (typeof node.additionalProperties === 'object') visit(node.additionalProperties, `${at}{}`);
    for (const key of ['if', 'then', 'else', 'not'] as const) {
      visit(node[key], `${at}(${key})`, { ...around, ...properties });
    }
    for (const [name, definition] of Object.entries((node.$defs ?? {}) as Record<string, unknown>)) {
      visit(definition, `${at}.$defs.${name}`);
    }
  };
  visit(root, path);
  return found;
}

describe('tools/list describes every property a model reads or writes', async () => {
  // What `lift serve` lists by default: the tools Lift ships and the server's own, as toMcpTool derives them.
  const listed = [...(await builtinTools()), approvalStatusTool(() => undefined)].map(toMcpTool);

  it('walks the tools Lift ships', () => {
    expect(listed.length).toBeGreaterThan(30);
  });

  it('describes every input property: nested objects, array items and union branches included', () => {
    const missing = listed.flatMap((tool) => undescribed(tool.inputSchema, `${tool.name}.input`));
    expect(missing).toEqual([]);
  });

  it("describes every output property: the envelope's and each tool's fields", () => {
    const missing = listed.flatMap((tool) => undescribed(tool.outputSchema, `${tool.name}.output`));
    expect(missing).toEqual([]);
  });
});
