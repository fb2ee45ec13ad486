import type { JsonSchema } from '../contract/json-schema.js';
import { allowedOnRung, NEVER_INPUT_RULES, neverInputKind } from './never-inputs.js';
import type { LintTarget } from './normalize.js';

export type Severity = 'fix-first' | 'should-fix' | 'consider';

export interface Finding {
  severity: Severity;
  rule: string;
  tool: string;
  argument?: string;
  message: string;
  fix: string;
}

const PASS_THROUGH_NAMES =
  /^(command|cmd|command_line|commandline|args|arguments|argv|query|sql|script|code|shell|bash|url|uri|expression|expr|input|request|payload|body|raw)$/i;
const CREDENTIAL_NAMES =
  /(password|passwd|passphrase|secret|token(?!s)|api[_-]?key|apikey|credential|private[_-]?key|access[_-]?key|\bpin\b)/i;
const ALLOW_LIST_NAMES =
  /^(status|state|type|kind|mode|format|environment|env|priority|level|severity|unit|currency|category|sort|order|direction|method|region|role|visibility|channel)$/i;
const REQUEST_ID_NAMES = /^(request_id|requestid|idempotency_key|idempotencykey|client_request_id)$/i;
const DRY_RUN_NAMES = /^(dry_run|dryrun|preview|simulate|what_if)$/i;
const WRITE_VERBS =
  /^(create|add|update|set|put|post|send|write|delete|remove|drop|close|open|restart|start|stop|import|transfer|pay|submit|publish|approve|cancel|merge|push|deploy|move|rename|upload|insert|book|refund)/i;
const IRREVERSIBLE_VERBS =
  /(^|_)(delete|remove|drop|destroy|purge|wipe|transfer|pay|refund|send|publish|deploy|truncate|revoke)(_|$)/i;
const GENERIC_NAMES =
  /^(run|exec|execute|do|call|invoke|query|tool|action|command|cmd|api|shell|bash|handle|process|perform|request|main|helper)(_|$)/i;
const RETURNS =
  /\b(return|returns|returned|gives back|comes back|responds with|reports|yields|answers with|outputs)\b/i;
const ERRORS = /\b(error|errors|fails|failure|not found|refuse|refuses|rejected)\b/i;
const ERROR_CODE = /\b[A-Z]{3,}(_[A-Z]+)+\b/;
const PATH_NAMES = /(^|_)(path|paths|file|filename|dir|directory|folder|image)$/i;
const TIMEOUT = /\b(timeout|time out|times out|deadline|within \d+|\d+\s?(s|ms|seconds|minutes))\b/i;
/**
 * A description that says the call waits for a person before it acts ("held until a person
 * approves it", "after a person signs off"): the one place a tool list can say so.
 */
const HELD_FOR_PERSON =
  /\b(held|holds|waits?)\b[^.]{0,60}\b(a person|a human|someone|approval)\b|\bafter (a person|a human|someone) (approves|signs off|confirms)\b/i;

function properties(schema: JsonSchema): Array<[string, JsonSchema]> {
  return Object.entries(schema.properties ?? {});
}

function isBoundedString(schema: JsonSchema): boolean {
  return (
    schema.enum !== undefined ||
    schema.const !== undefined ||
    schema.maxLength !== undefined ||
    schema.pattern !== undefined ||
    (schema.format !== undefined && schema.format !== 'string')
  );
}

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  return schema.type;
}

function looksLikeWrite(target: LintTarget): boolean {
  if (target.lift) return target.lift.effectClass !== 'read';
  if (target.readOnly === true) return false;
  if (target.readOnly === false || target.destructive === true) return true;
  return target.name
    .split('_')
    .some((word) => WRITE_VERBS.test(word) && WRITE_VERBS.exec(word)?.[0] === word);
}

function looksIrreversible(target: LintTarget): boolean {
  if (target.lift) return target.lift.effectClass === 'irreversible';
  return target.destructive === true || IRREVERSIBLE_VERBS.test(target.name);
}

/** Walks every property, nested objects and array items included, with a dotted path. */
function walk(
  schema: JsonSchema,
  visit: (path: string, name: string, property: JsonSchema) => void,
  prefix = '',
): void {
  for (const [name, property] of properties(schema)) {
    const path = prefix ? `${prefix}.${name}` : name;
    visit(path, name, property);
    if (typeOf(property) === 'object') walk(property, visit, path);
    if (typeOf(property) === 'array' && property.items) {
      if (typeOf(property.items) === 'object') walk(property.items, visit, `${path}[]`);
      else visit(`${path}[]`, name, property.items);
    }
  }
}

/** Every rule, applied to one tool. Each finding says what to change. */
export function lintTool(target: LintTarget): Finding[] {
  const findings: Finding[] = [];
  const add = (finding: Omit<Finding, 'tool'>) => findings.push({ tool: target.name, ...finding });
  const top = properties(target.parameters);
  const meaningful = top.filter(([name]) => !REQUEST_ID_NAMES.test(name) && !DRY_RUN_NAMES.test(name));

  const [only] = meaningful;
  const passThrough =
    meaningful.length === 1 &&
    only !== undefined &&
    typeOf(only[1]) === 'string' &&
    only[1].enum === undefined &&
    only[1].pattern === undefined &&
    (PASS_THROUGH_NAMES.test(only[0]) ||
      /\b(command|query|script|shell|url|arguments)\b/i.test(only[1].description ?? ''));
  if (passThrough && only) {
    add({
      severity: 'fix-first',
      rule: 'pass-through',
      argument: only[0],
      message: `One free-text argument '${only[0]}' hands the model the whole human interface of the program.`,
      fix: 'Split it into task-shaped tools, one per operation, each with typed, bounded arguments; fix the command line in code.',
    });
  }

  walk(target.parameters, (path, name, property) => {
    const type = typeOf(property);
    if (target.lift && !target.lift.declaresPaths && type === 'string' && PATH_NAMES.test(name)) {
      add({
        severity: 'fix-first',
        rule: 'path-without-roots',
        argument: path,
        message: `'${path}' looks like a path, and the tool declares no roots for it: it could reach any file, Lift's secrets included.`,
        fix: 'Declare paths: (input) => [{ path: input.X, scope: { family, what } }] in defineTool, and open the file at ctx.resolvePath(input.X, scope).',
      });
    }
    if (CREDENTIAL_NAMES.test(name)) {
      add({
        severity: 'fix-first',
        rule: 'credential-input',
        argument: path,
        message: `'${path}' asks the model for a credential.`,
        fix: 'Remove the argument; the wrapper reads the credential from its secret store by name.',
      });
      return;
    }
    const kind = neverInputKind(name, property);
    // A lone pass-through argument already has its finding; one per argument reads best.
    if (kind && !allowedOnRung(kind, target.lift?.rung) && !(passThrough && path === only?.[0])) {
      const { rule, what, fix } = NEVER_INPUT_RULES[kind];
      add({ severity: 'fix-first', rule, argument: path, message: `'${path}' ${what}.`, fix });
      return;
    }
    if (type === 'string' && !isBoundedString(property)) {
      if (ALLOW_LIST_NAMES.test(name)) {
        add({
          severity: 'should-fix',
          rule: 'free-string-for-allow-list',
          argument: path,
          message: `'${path}' is a free string where a small set of values fits.`,
          fix: 'Declare an enum of the allowed values.',
        });
      } else {
        add({
          severity: 'should-fix',
          rule: 'unbounded-string',
          argument: path,
          message: `'${path}' is a string with no length limit, pattern or allowed values.`,
          fix: 'Add maxLength (and a pattern or enum where the values have a shape).',
        });
      }
    }
    if (type === 'array' && property.maxItems === undefined) {
      add({
        severity: 'should-fix',
        rule: 'unbounded-array',
        argument: path,
        message: `'${path}' accepts any number of items.`,
        fix: 'Add maxItems.',
      });
    }
    if ((type === 'number' || type === 'integer') && property.enum === undefined) {
      const low = property.minimum ?? property.exclusiveMinimum;
      const high = property.maximum ?? property.exclusiveMaximum;
      if (low === undefined || high === undefined) {
        add({
          severity: 'consider',
          rule: 'unbounded-number',
          argument: path,
          message: `'${path}' has no ${low === undefined ? 'minimum' : 'maximum'}.`,
          fix: 'Bound it with minimum and maximum.',
        });
      }
    }
  });

  const write = looksLikeWrite(target) || passThrough;
  if (write && !top.some(([name]) => REQUEST_ID_NAMES.test(name))) {
    add({
      severity: 'should-fix',
      rule: 'write-without-request-id',
      message: 'A create or write with no request id: a retried call will do it twice.',
      fix: "Add a required 'request_id' string; a repeat with the same id returns the first result.",
    });
  }
  // A Lift contract declares its gate; a tool list can only say it in the description.
  const heldByGate = target.lift ? target.lift.holdsForPerson : HELD_FOR_PERSON.test(target.description);
  // A pass-through can run anything, the irreversible included.
  if (
    (looksIrreversible(target) || passThrough) &&
    !heldByGate &&
    !top.some(([name]) => DRY_RUN_NAMES.test(name))
  ) {
    add({
      severity: 'should-fix',
      rule: 'irreversible-without-preview',
      message: 'An irreversible operation with no dry run or preview.',
      fix: "Add a 'dry_run' boolean that returns what would be done, or hold the call for a person's approval.",
    });
  }

  const description = target.description.trim();
  if (description.length === 0) {
    add({
      severity: 'fix-first',
      rule: 'missing-description',
      message: 'The tool has no description; the model cannot know what it does.',
      fix: 'Describe the one operation, its one effect, and what comes back.',
    });
  } else {
    if (description.length < 40) {
      add({
        severity: 'should-fix',
        rule: 'thin-description',
        message: 'The description is too short to say the one effect and what comes back.',
        fix: 'Say what the tool changes (or that it only reads) and which fields it returns.',
      });
    }
    if (!RETURNS.test(description)) {
      add({
        severity: 'consider',
        rule: 'description-missing-result',
        message: 'The description does not say what comes back.',
        fix: "Add a sentence such as 'Returns the item id, its quantity and the effect.'",
      });
    }
  }
  const hasHints = target.lift
    ? target.lift.errorHints
    : ERRORS.test(description) || ERROR_CODE.test(description);
  if (!hasHints) {
    add({
      severity: 'consider',
      rule: 'missing-error-hints',
      message: 'Nothing tells the caller which errors come back and what to do about them.',
      fix: 'List the error codes with a hint each: what happened, a correct call, what to try next.',
    });
  }
  if (!target.lift && !TIMEOUT.test(description)) {
    add({
      severity: 'consider',
      rule: 'no-timeout',
      message: 'No deadline is declared; the caller cannot tell a slow call from a hang.',
      fix: "Declare the deadline (e.g. 'Times out after 30 s with TIMEOUT').",
    });
  }
  if (GENERIC_NAMES.test(target.name) || !/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(target.name)) {
    add({
      severity: 'should-fix',
      rule: 'name-not-task-shaped',
      message: `'${target.name}' does not name one task.`,
      fix: "Name it object_verb or verb_object after the one operation, e.g. 'inventory_create_item'.",
    });
  }
  return findings;
}

const ORDER: Record<Severity, number> = { 'fix-first': 0, 'should-fix': 1, consider: 2 };

export function lintTools(targets: LintTarget[]): Finding[] {
  return targets
    .flatMap(lintTool)
    .sort((a, b) => ORDER[a.severity] - ORDER[b.severity] || a.tool.localeCompare(b.tool));
}
