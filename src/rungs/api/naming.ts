/** Verbs an operationId may start with; they move to the end so names read object_verb (ticket_get). */
const VERBS = new Set([
  'get',
  'list',
  'create',
  'update',
  'delete',
  'add',
  'remove',
  'find',
  'search',
  'set',
  'patch',
  'replace',
  'upload',
  'download',
  'close',
  'open',
  'cancel',
  'place',
  'retrieve',
  'fetch',
  'read',
  'post',
  'put',
  'login',
  'logout',
  'archive',
  'restore',
  'assign',
  'approve',
  'reject',
  'send',
  'reset',
  'move',
  'merge',
  'record',
  'book',
  'pay',
  'submit',
  'export',
  'import',
  'ship',
]);

/** Splits camelCase, PascalCase, snake_case and kebab-case into lower-case words. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

export function snakeCase(text: string): string {
  return words(text).join('_');
}

/**
 * A task-shaped tool name from an operationId: `getTicket` -> `ticket_get`,
 * `listPets` -> `pets_list`, `getPetById` -> `pet_get`. A person can rename it in the file.
 */
export function toolNameFor(operationId: string, path: string): string {
  let parts = words(operationId);
  if (parts.length >= 3 && parts.at(-2) === 'by' && parts.at(-1) === 'id') parts = parts.slice(0, -2);
  const [first, ...rest] = parts;
  if (first && VERBS.has(first) && rest.length > 0) parts = [...rest, first];
  if (parts.length < 2) {
    const resource = path
      .split('/')
      .filter((segment) => segment && !segment.startsWith('{'))
      .at(-1);
    const prefix = words(resource ?? 'api');
    parts = prefix.join('_') === parts.join('_') ? [...parts, 'run'] : [...prefix, ...parts];
  }
  if (parts.length < 2) parts.push('call');
  const name = parts.join('_');
  return /^[a-z]/.test(name) ? name : `op_${name}`;
}

/** An argument name from a wire name: `X-Request-Source` -> `x_request_source`; plain names stay as they are. */
export function argumentNameFor(wire: string): string {
  if (/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(wire)) return wire;
  const name = snakeCase(wire);
  return /^[a-z_]/.test(name) ? name : `p_${name}`;
}
