/** A JSON Schema as z.toJSONSchema makes it: read here by the few keywords a reader needs. */
export type JsonSchema = Record<string, unknown>;

/** A key of the file, at its dotted path (`settings.<family>.roots`), and what its schema says. */
export interface DocumentedKey {
  path: string;
  schema: JsonSchema;
  /** Required whenever the object it is in is given. */
  required: boolean;
}

/** What a map's key stands for, by the map's path: `gates.<tool>`, not `gates.<name>`. */
const MAP_KEYS: Readonly<Record<string, string>> = {
  gates: 'tool',
  settings: 'family',
  'shortlist.groups': 'group',
  'shortlist.groups.<group>.kinds': 'kind',
  'shortlist.extensions': 'extension',
};

const asSchema = (value: unknown): JsonSchema | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined;

function propertiesOf(schema: JsonSchema): Array<[string, JsonSchema]> {
  return Object.entries(asSchema(schema.properties) ?? {}).map(([key, value]) => [
    key,
    asSchema(value) ?? {},
  ]);
}

/** The schema of a map's values, when the object is (or also is) a map. */
function mapValues(schema: JsonSchema): JsonSchema | undefined {
  const values = asSchema(schema.additionalProperties);
  return values && Object.keys(values).length > 0 ? values : undefined;
}

/**
 * Every key a lift.config may hold, depth first, in the schema's order: an object's keys, a
 * map's `<name>` (a family in `settings`), and the keys of a list's objects (`signals[].weight`).
 */
export function documentedKeys(schema: JsonSchema, prefix = ''): DocumentedKey[] {
  const keys: DocumentedKey[] = [];
  const needed = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const [key, property] of propertiesOf(schema)) {
    const path = prefix ? `${prefix}.${key}` : key;
    keys.push({ path, schema: property, required: needed.has(key) });
    keys.push(...documentedKeys(property, path));
  }
  const values = mapValues(schema);
  if (values && prefix) {
    const path = `${prefix}.<${MAP_KEYS[prefix] ?? 'name'}>`;
    if (propertiesOf(values).length > 0 || mapValues(values)) {
      keys.push({ path, schema: values, required: false });
      keys.push(...documentedKeys(values, path));
    }
  }
  const items = asSchema(schema.items);
  if (items && propertiesOf(items).length > 0) keys.push(...documentedKeys(items, `${prefix}[]`));
  return keys;
}

/** A schema's type as a person says it: `list of string`, `map of tool → "none" or "log"`. */
export function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.enum))
    return (schema.enum as unknown[]).map((value) => `\`${JSON.stringify(value)}\``).join(', ');
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.anyOf))
    return (schema.anyOf as unknown[]).map((each) => typeOf(asSchema(each) ?? {})).join(' or ');
  switch (schema.type) {
    case 'array':
      return `list of ${typeOf(asSchema(schema.items) ?? asSchema((schema.prefixItems as unknown[])?.[0]) ?? {})}`;
    case 'object': {
      const values = mapValues(schema);
      if (propertiesOf(schema).length > 0 || !values) return 'object';
      return `map of name → ${typeOf(values)}`;
    }
    case 'string':
      return schema.format === 'uri' ? 'URL' : 'string';
    case undefined:
      return 'any';
    default:
      return String(schema.type);
  }
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function defaultOf(key: DocumentedKey): string {
  if (key.schema.default !== undefined) return `\`${JSON.stringify(key.schema.default)}\``;
  return key.required ? 'required' : '';
}

function table(keys: DocumentedKey[]): string[] {
  return [
    '| key | type | default | what it is |',
    '| --- | --- | --- | --- |',
    ...keys.map(
      (key) =>
        `| \`${key.path}\` | ${cell(typeOf(key.schema))} | ${cell(defaultOf(key))} | ${cell(String(key.schema.description ?? ''))} |`,
    ),
  ];
}

const INTRO = [
  '# lift.config reference',
  '',
  '<!-- Generated from the Zod schema of src/config/load.ts and the settings schemas of each family',
  '     (src/config-reference.ts) by `npm run docs:config`; a test fails when this page is stale. -->',
  '',
  'Lift reads `lift.config.json` (or `lift.config.ts`, `.mjs`, `.js` exporting the same object as its default)',
  "from the folder it runs in. Everything in it is the operator's decision; a model never changes it.",
  'Its JSON Schema is [lift.config.schema.json](lift.config.schema.json): name it in the file and an editor',
  'completes and checks every key below.',
  '',
  '```json',
  '{',
  '  "$schema": "./node_modules/lift/docs/lift.config.schema.json",',
  '  "settings": { "hledger": { "journal": "/srv/books/main.journal" } },',
  '  "gates": { "ledger_add_transaction": "review" },',
  '  "serve": { "caps": ["office", "hledger"] }',
  '}',
  '```',
  '',
  "The paths of `tools`, `apis`, `roots` and `settings.<family>.roots` are taken from the config file's",
  'folder when relative. `LIFT_HOME` overrides `home`, `LIFT_POSTGRES_URL` overrides `store`, and',
  '`lift serve --caps` overrides `serve.caps`. A key marked required is required when the object it is in is given.',
];

/**
 * docs/config.md: one section per top-level key with its description, then a table of the
 * keys inside it; `settings` gets one section per family whose settings are known.
 */
export function referencePage(schema: JsonSchema): string {
  const lines = [...INTRO];
  for (const [key, property] of propertiesOf(schema)) {
    lines.push('', `## \`${key}\``, '', String(property.description ?? ''), '', `Type: ${typeOf(property)}.`);
    if (property.default !== undefined) lines.push(`Default: \`${JSON.stringify(property.default)}\`.`);
    if (key === 'settings') {
      for (const [family, settings] of propertiesOf(property))
        lines.push(...familySection(`settings.${family}`, settings));
      const others = mapValues(property);
      if (others) lines.push(...familySection('settings.<family>', others));
      continue;
    }
    const inner = documentedKeys(property, key);
    if (inner.length > 0) lines.push('', ...table(inner));
  }
  return `${lines.join('\n')}\n`;
}

function familySection(path: string, settings: JsonSchema): string[] {
  return [
    '',
    `### \`${path}\``,
    '',
    String(settings.description ?? ''),
    '',
    ...table(documentedKeys(settings, path)),
  ];
}
