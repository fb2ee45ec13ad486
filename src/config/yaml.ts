import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let yaml: typeof import('yaml') | undefined;

/**
 * Parses YAML text (policies, sign-in recipes, OpenAPI descriptions, ladder declarations). The
 * parser loads on the first YAML file read, not with Lift: it is a tenth of Lift's import
 * time, and most programs read JSON or nothing. Node's yaml build is CommonJS, so this require
 * and an `import` elsewhere share one instance.
 */
export function parseYaml(text: string): unknown {
  yaml ??= require('yaml') as typeof import('yaml');
  return yaml.parse(text);
}
