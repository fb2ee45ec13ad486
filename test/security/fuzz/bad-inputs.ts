/**
 * Bad inputs for any tool, made by mutating its example: a field replaced by a wrong type, a
 * hostile string or number, a deep nest; an extra or prototype-polluting key; or a whole input
 * that is not an object at all.
 */
import fc from 'fast-check';

type Path = Array<string | number>;

/** Paths to every value in an example, the root included. */
export function pathsIn(value: unknown, at: Path = []): Path[] {
  const inner =
    value !== null && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, child]) =>
          pathsIn(child, [...at, Array.isArray(value) ? Number(key) : key]),
        )
      : [];
  return [at, ...inner];
}

function nest(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { a: value } : [value];
  return value;
}

/** Strings that break naive code: huge, control and unpaired surrogates, bidi, paths that escape. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    'x'.repeat(200_000),
    '',
    '\u0000',
    'a\u0000b',
    '\uD800',
    '\uDFFFtail',
    '\u202Egnp.exe',
    '\uFEFF\u200B\u2028',
    'e\u0301\u0301\u0301',
    '𝕏'.repeat(5_000),
    '\r\n\r\n',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text is the point
    '${process.env}',
    '{{constructor.constructor}}',
    '$a.fields.b',
    '../../../../../../../../etc/passwd',
    '/etc/passwd',
    '/proc/self/environ',
    '.lift/secrets.json',
    '.lift/lift.db',
    '..\\..\\..\\windows\\win.ini',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    'file:///etc/passwd',
    '/',
    '..',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Paths that leave every root: system files, Lift's home, traversals. */
export const escapingPath = fc.constantFrom(
  '/etc/passwd',
  '/etc/shadow',
  '/proc/self/environ',
  '/',
  '..',
  '../../../../../../../../etc/passwd',
  '.lift/secrets.json',
  '.lift/lift.db',
  '.lift/runs',
  '.lift/out/../secrets.json',
  '/root/.ssh/id_rsa',
);

/** Field names that hold a path (a valid value there still has to pass the roots check). */
export const PATH_KEY = /path|image|file$|dir$/;

export const hostileNumber = fc.constantFrom(
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  -1,
  -0,
  0.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  Number.MIN_VALUE,
);

const wrongValue = fc.oneof(
  hostileString,
  hostileNumber,
  fc.constantFrom(null, true, false, [], {}, [[[]]]),
  fc.integer({ min: 200, max: 3_000 }).map(nest),
  fc.anything({ maxDepth: 3, maxKeys: 4 }),
);

const strangeKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', ''),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

export type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'path'; at: number; value: string }
  | { kind: 'extra'; at: number; key: string; value: unknown }
  | { kind: 'pollute'; key: '__proto__' | 'constructor' }
  | { kind: 'whole'; value: unknown };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: wrongValue }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('path' as const), at: fc.nat(), value: escapingPath }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('extra' as const),
      at: fc.nat(),
      key: strangeKey,
      value: wrongValue,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('pollute' as const),
      key: fc.constantFrom('__proto__', 'constructor'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('whole' as const),
      value: fc.oneof(
        hostileString,
        hostileNumber,
        fc.constantFrom(null, undefined, [], true),
        fc.integer({ min: 200, max: 3_000 }).map(nest),
      ),
    }),
  },
);

/** Sets the value at `path` in a copy of `base` (the root path replaces the whole value). */
function setAt(base: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...Path];
  const copy = (Array.isArray(base) ? [...base] : { ...(base as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = setAt(copy[head], rest, value);
  return copy;
}

function getAt(base: unknown, path: Path): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)?.[key], base);
}

/** The mutated input, and the path of the field it changed (for telling a path field apart). */
export function applyMutation(
  example: unknown,
  change: Mutation,
): { input: unknown; field: Path | undefined } {
  const base = structuredClone(example ?? {});
  const paths = pathsIn(base);
  switch (change.kind) {
    case 'whole':
      return { input: change.value, field: undefined };
    case 'replace':
    case 'path': {
      const pathKeys = paths.filter((path) => PATH_KEY.test(String(path.at(-1))));
      const choices = change.kind === 'path' && pathKeys.length > 0 ? pathKeys : paths;
      const field = choices[change.at % choices.length] ?? [];
      return { input: setAt(base, field, change.value), field };
    }
    case 'extra': {
      const objects = paths.filter((path) => {
        const value = getAt(base, path);
        return value !== null && typeof value === 'object' && !Array.isArray(value);
      });
      const at = objects[change.at % Math.max(1, objects.length)] ?? [];
      const target = { ...(getAt(base, at) as object) };
      // defineProperty: an own key even for '__proto__', as JSON.parse makes it.
      Object.defineProperty(target, change.key, { value: change.value, enumerable: true, writable: true });
      return { input: setAt(base, at, target), field: [...at, change.key] };
    }
    case 'pollute': {
      const text = JSON.stringify(base);
      const polluted = text.startsWith('{')
        ? `{"${change.key}":{"polluted":"yes","prototype":{"polluted":"yes"}},${text.slice(1)}`
        : text;
      return { input: JSON.parse(polluted.replace(/,}$/, '}')), field: [change.key] };
    }
  }
}
