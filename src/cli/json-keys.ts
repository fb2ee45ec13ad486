/** `modelCalls` -> `model_calls`: the one key style of all of Lift's JSON, as the tool envelopes use it. */
export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * A record of Lift's own with its keys in snake_case, one level deep. Deliberately shallow:
 * values inside (a tool's input, a preview) are the caller's data and keep their keys.
 */
export function snakeCaseKeys(record: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [snakeCase(key), value]));
}
