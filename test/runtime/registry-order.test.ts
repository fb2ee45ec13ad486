import { describe, expect, it } from 'vitest';
import type { AnyTool } from '../../src/contract/define-tool.js';
import { Registry } from '../../src/runtime/registry.js';

describe('Registry.list', () => {
  it('orders tools by code unit, the same on every machine and without loading ICU collation', () => {
    const named = (name: string) => ({ name }) as AnyTool;
    const registry = new Registry(['ifc_read', 'ifc2_read', 'git_log', 'a_b'].map(named));
    // A locale's collation puts '_' before digits ('ifc_read' first); code units put '2' before '_'.
    expect(registry.list().map((tool) => tool.name)).toEqual(['a_b', 'git_log', 'ifc2_read', 'ifc_read']);
  });
});
