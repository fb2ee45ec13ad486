import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { ToolContext } from '../../src/contract/context.js';
import {
  currentEventType,
  declareAppEvents,
  isRunEventType,
  RUN_EVENT_TYPES,
  wordsOfAppEvent,
} from '../../src/contract/events.js';
import { isModelEvent } from '../../src/store/run-event.js';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');

/** The functions events are written through: ctx.emit, a session's #emit, a call's event, ... */
const SINKS = new Set(['emit', '#emit', 'event', 'log', 'record', 'onEvent']);

function files(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The string literals an expression can evaluate to (both branches of a conditional). */
function literals(node: ts.Expression): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isParenthesizedExpression(node)) return literals(node.expression);
  if (ts.isConditionalExpression(node)) return [...literals(node.whenTrue), ...literals(node.whenFalse)];
  return [];
}

function calleeName(callee: ts.Expression): string | undefined {
  if (ts.isIdentifier(callee)) return callee.text;
  if (!ts.isPropertyAccessExpression(callee)) return undefined;
  if (ts.isIdentifier(callee.expression) && callee.expression.text === 'console') return undefined;
  return callee.name.text;
}

/** Every event type a source file writes: `sink('name', ...)` or `sink({ type: 'name', ... })`. */
function emittedIn(file: string): Array<{ type: string; at: string }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Array<{ type: string; at: string }> = [];
  const visit = (node: ts.Node): void => {
    // A function declared to return a ToolEvent builds one for a sink to write (stepEvent).
    if (ts.isFunctionDeclaration(node) && node.type?.getText(source) === 'ToolEvent' && node.body) {
      for (const statement of node.body.statements) {
        const returned = ts.isReturnStatement(statement) ? statement.expression : undefined;
        if (!returned || !ts.isObjectLiteralExpression(returned)) continue;
        const type = returned.properties.find(
          (property): property is ts.PropertyAssignment =>
            ts.isPropertyAssignment(property) && property.name.getText(source) === 'type',
        );
        const line = source.getLineAndCharacterOfPosition(statement.getStart(source)).line + 1;
        for (const name of type ? literals(type.initializer) : [])
          found.push({ type: name, at: `${relative(SRC, file)}:${line}` });
      }
    }
    if (ts.isCallExpression(node) && SINKS.has(calleeName(node.expression) ?? '')) {
      const first = node.arguments[0];
      let types: string[] = [];
      if (first && ts.isObjectLiteralExpression(first)) {
        const type = first.properties.find(
          (property): property is ts.PropertyAssignment =>
            ts.isPropertyAssignment(property) && property.name.getText(source) === 'type',
        );
        if (type) types = literals(type.initializer);
      } else if (first) types = literals(first);
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      for (const type of types) found.push({ type, at: `${relative(SRC, file)}:${line}` });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Each family's declared events, by family (apps/<family>/events.ts), loaded as its tools load them. */
async function declaredByFamily(): Promise<Map<string, string[]>> {
  const byFamily = new Map<string, string[]>();
  for (const family of readdirSync(join(SRC, 'apps'))) {
    const file = join(SRC, 'apps', family, 'events.ts');
    if (!existsSync(file)) continue;
    const module = (await import(file)) as Record<string, unknown>;
    const declared = Object.values(module).flatMap((value) =>
      value && typeof value === 'object' ? Object.keys(value) : [],
    );
    byFamily.set(family, declared);
  }
  return byFamily;
}

describe('the run-log event catalogue', async () => {
  // Fixtures stand in for other people's programs: they write no Lift run log.
  const emitted = files(SRC)
    .filter((file) => !relative(SRC, file).startsWith('fixtures/'))
    .flatMap(emittedIn);
  const families = await declaredByFamily();
  const familyOf = new Map([...families].flatMap(([family, types]) => types.map((type) => [type, family])));

  it('holds every event any module emits: the runtime, tools, the agent, discovery, replay, the UI rung and each family', () => {
    expect(emitted.length).toBeGreaterThan(60);
    expect(families.size).toBeGreaterThan(5);
    expect(emitted.filter((event) => !isRunEventType(event.type))).toEqual([]);
  });

  it('has each family emit only the events it declares beside its tools, each with its words', () => {
    const elsewhere = emitted.filter((event) => {
      const family = familyOf.get(event.type);
      return family !== undefined && !event.at.startsWith(`apps/${family}/`);
    });
    expect(elsewhere).toEqual([]);
    for (const type of familyOf.keys()) expect(wordsOfAppEvent(type), type).toBeTypeOf('function');
  });

  it('holds no name that no module emits', () => {
    const used = new Set(emitted.map((event) => event.type));
    expect([...RUN_EVENT_TYPES, ...familyOf.keys()].filter((type) => !used.has(type))).toEqual([]);
  });

  it('names each event noun then verb, in lower-case words joined by dashes, once', () => {
    const all = [...RUN_EVENT_TYPES, ...[...families.values()].flat()];
    for (const type of all) expect(type).toMatch(/^[a-z]+(?:-[a-z]+)+$/);
    expect(new Set(all).size).toBe(all.length);
  });

  it('refuses a family event that takes the name of one of Lift’s own', () => {
    expect(() => declareAppEvents({ 'call-start': () => 'mine' })).toThrow(/Lift's own/);
  });

  it('reads the names of Lift 0.1.0 run logs as today’s names, and still counts their model events', () => {
    const old: Array<[Record<string, unknown> & { type: string }, string]> = [
      [{ type: 'start' }, 'call-start'],
      [{ type: 'validated' }, 'input-validated'],
      [{ type: 'ledger', result: 'claimed' }, 'ledger-claimed'],
      [{ type: 'ledger', result: 'existing' }, 'ledger-answered'],
      [{ type: 'gate', held: false }, 'gate-passed'],
      [{ type: 'gate', held: true }, 'gate-held'],
      [{ type: 'check', passed: true }, 'check-passed'],
      [{ type: 'check', passed: false }, 'check-failed'],
      [{ type: 'end' }, 'call-end'],
      [{ type: 'model-call' }, 'model-called'],
      [{ type: 'replay-step' }, 'replay-step-end'],
      [{ type: 'ui-observation' }, 'ui-page-observed'],
      [{ type: 'observation' }, 'page-observed'],
    ];
    for (const [event, now] of old) expect(currentEventType(event)).toBe(now);
    for (const type of ['model-call', 'model-retry', 'model-hedge', 'model-preflight-refused'])
      expect(isModelEvent({ type: currentEventType({ type }) }), type).toBe(true);
    expect(currentEventType({ type: 'someone-elses-event' })).toBe('someone-elses-event');
  });

  it('types ToolContext.emit by the catalogue, so an unknown name does not compile', () => {
    const emitUnknown = (ctx: ToolContext) =>
      // @ts-expect-error: 'validated' is a name of Lift 0.1.0, not of the catalogue
      ctx.emit({ type: 'validated' });
    expect(typeof emitUnknown).toBe('function');
  });
});
