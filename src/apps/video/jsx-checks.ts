import type { Expression, MemberExpression, Node, SpreadElement } from 'acorn';
import type { Check } from '../../contract/envelope.js';
import type { TitlePlan } from './title.js';

/** One property's keys as a reader found them: frame and value. */
export type ReadKeys = Array<{ frame: number; value: number[] }>;

/** The title layer's transform as the Lottie file holds it (ks.o, ks.p, ks.s of the text layer). */
export interface LottieTransform {
  Opacity: ReadKeys;
  Position: ReadKeys;
  Scale: ReadKeys;
}

type Argument = Expression | SpreadElement | undefined;

/** A constant expression's number (literals, + - * /, unary minus), or undefined. */
function numeric(node: Argument): number | undefined {
  if (!node) return undefined;
  if (node.type === 'Literal') return typeof node.value === 'number' ? node.value : undefined;
  if (node.type === 'UnaryExpression' && node.operator === '-') {
    const value = numeric(node.argument);
    return value === undefined ? undefined : -value;
  }
  if (node.type !== 'BinaryExpression' || node.left.type === 'PrivateIdentifier') return undefined;
  const [left, right] = [numeric(node.left), numeric(node.right)];
  if (left === undefined || right === undefined) return undefined;
  const apply: Record<string, (a: number, b: number) => number> = {
    '+': (a, b) => a + b,
    '-': (a, b) => a - b,
    '*': (a, b) => a * b,
    '/': (a, b) => a / b,
  };
  return apply[node.operator]?.(left, right);
}

/** A number or an array literal of numbers, as an array. */
function values(node: Argument): number[] | undefined {
  if (node?.type === 'ArrayExpression') {
    const items = node.elements.map((element) => numeric(element ?? undefined));
    return items.every((item) => item !== undefined) ? (items as number[]) : undefined;
  }
  const value = numeric(node);
  return value === undefined ? undefined : [value];
}

function memberName(node: Node): string | undefined {
  if (node.type !== 'MemberExpression') return undefined;
  const { property } = node as MemberExpression;
  return property.type === 'Identifier' ? property.name : undefined;
}

/** `layer.property("Transform").property("Opacity")`: the layer variable and the property. */
function transformOf(node: Argument): { layer: string; property: string } | undefined {
  if (node?.type !== 'CallExpression' || memberName(node.callee) !== 'property') return undefined;
  const [name] = node.arguments;
  const inner = node.callee.type === 'MemberExpression' ? node.callee.object : undefined;
  if (name?.type !== 'Literal' || typeof name.value !== 'string') return undefined;
  if (inner?.type !== 'CallExpression' || memberName(inner.callee) !== 'property') return undefined;
  const [transform] = inner.arguments;
  const layer = inner.callee.type === 'MemberExpression' ? inner.callee.object : undefined;
  if (transform?.type !== 'Literal' || transform.value !== 'Transform' || layer?.type !== 'Identifier')
    return undefined;
  return { layer: layer.name, property: name.value };
}

/** What the script declares: its comp's numbers and each layer's keys, by walking acorn's tree. */
export interface ReadScript {
  comp?: {
    width: number | undefined;
    height: number | undefined;
    seconds: number | undefined;
    rate: number | undefined;
  };
  keys: Record<string, ReadKeys>;
}

/**
 * Parses the script as ES3 (ExtendScript's language) with acorn and walks the tree with
 * acorn-walk: the `items.addComp(name, width, height, aspect, duration, rate)` call, the
 * variables that hold a layer's transform property, and their `setValueAtTime(time, value)` and
 * `setValue(value)` calls, each time turned into a frame at the comp's rate.
 */
export async function readScript(text: string): Promise<ReadScript> {
  const { parse } = await import('acorn');
  const { simple } = await import('acorn-walk');
  const tree = parse(text, { ecmaVersion: 3, sourceType: 'script' });
  const read: ReadScript = { keys: {} };
  const properties = new Map<string, string>();
  const calls: Array<{ variable: string; method: string; args: Argument[] }> = [];
  simple(tree, {
    VariableDeclarator(node) {
      const found = node.id.type === 'Identifier' ? transformOf(node.init ?? undefined) : undefined;
      if (found && node.id.type === 'Identifier')
        properties.set(node.id.name, `${found.layer}.${found.property}`);
    },
    CallExpression(node) {
      const method = memberName(node.callee);
      if (method === 'addComp') {
        const [, width, height, , seconds, rate] = node.arguments;
        read.comp = {
          width: numeric(width),
          height: numeric(height),
          seconds: numeric(seconds),
          rate: numeric(rate),
        };
      }
      const object = node.callee.type === 'MemberExpression' ? node.callee.object : undefined;
      if ((method === 'setValueAtTime' || method === 'setValue') && object?.type === 'Identifier')
        calls.push({ variable: object.name, method, args: node.arguments });
    },
  });
  const rate = read.comp?.rate ?? Number.NaN;
  for (const call of calls) {
    const property = properties.get(call.variable);
    if (!property) continue;
    const atTime = call.method === 'setValueAtTime';
    const seconds = atTime ? numeric(call.args[0]) : 0;
    const value = values(call.args[atTime ? 1 : 0]);
    if (seconds === undefined || value === undefined) continue;
    read.keys[property] = [
      ...(read.keys[property] ?? []),
      { frame: Math.round(seconds * rate * 1e6) / 1e6, value },
    ];
  }
  return read;
}

const sameKeys = (a: ReadKeys | undefined, b: ReadKeys) =>
  a !== undefined &&
  a.length === b.length &&
  a.every(
    (key, index) =>
      key.frame === b[index]?.frame &&
      key.value.every((value, at) => Math.abs(value - (b[index]?.value[at] ?? Number.NaN)) < 0.01),
  );

/**
 * The .jsx parses as ES3 and builds the comp the title is (the same width, height, length and
 * exact rate), and its title layer has, frame for frame, the opacity, position and scale keys
 * the Lottie file's text layer has.
 */
export async function scriptCheck(text: string, plan: TitlePlan, lottie: LottieTransform): Promise<Check> {
  let read: ReadScript;
  try {
    read = await readScript(text);
  } catch (error) {
    return {
      name: 'jsx_builds_same_comp',
      passed: false,
      detail: `acorn (ES3) did not parse the .jsx: ${(error as Error).message}`,
    };
  }
  const rate = plan.rate.num / plan.rate.den;
  const seconds = (plan.frames * plan.rate.den) / plan.rate.num;
  const comp = read.comp;
  const problems: string[] = [];
  if (!comp) problems.push('no addComp call');
  else {
    if (comp.width !== plan.width || comp.height !== plan.height)
      problems.push(`the comp is ${comp.width}x${comp.height}, the title ${plan.width}x${plan.height}`);
    if (comp.rate === undefined || Math.abs(comp.rate - rate) > 1e-9)
      problems.push(`the comp runs at ${comp.rate} fps, the title at ${rate}`);
    if (comp.seconds === undefined || Math.abs(comp.seconds - seconds) > 1e-9)
      problems.push(`the comp lasts ${comp.seconds} s, the title ${seconds} s`);
  }
  for (const property of ['Opacity', 'Position', 'Scale'] as const)
    if (!sameKeys(read.keys[`title.${property}`], lottie[property]))
      problems.push(`the title layer's ${property} keys differ from the Lottie file's`);
  return {
    name: 'jsx_builds_same_comp',
    passed: problems.length === 0,
    detail:
      problems.length === 0
        ? `acorn parsed the .jsx as ES3: addComp ${plan.width}x${plan.height}, ${plan.frames} frames at ${Math.round(rate * 1000) / 1000} fps, and the title layer's opacity, position and scale keys at the Lottie file's frames (${lottie.Opacity.map((key) => key.frame).join(', ')}).`
        : `${problems.join('; ')}.`,
  };
}
