import { LiftError } from '../../../contract/errors.js';
import type { JournalEntry } from '../journal.js';
import type { Locator } from '../locate.js';
import { type DesktopSkill, DesktopSkillSchema, SKILL_SCHEMA_VERSION, type SkillStep } from './format.js';

export interface CompileRequest {
  journal: readonly JournalEntry[];
  name: string;
  /** The task in words, with its inputs in braces: "calculate {a} + {b}". */
  intent: string;
  /** The value each input had in the run, to be found in what was typed. */
  values: Readonly<Record<string, string | number>>;
  /** The control that shows the answer; default: the control the run's last check read. */
  read?: Locator;
  /** How many of the last act_window calls make the run (default 1). */
  calls?: number;
  output?: string;
  runId: string;
  liftVersion: string;
}

function intentInputs(intent: string): string[] {
  return [...intent.matchAll(/\{([a-zA-Z][a-zA-Z0-9_]*)\}/g)].map((match) => match[1]!);
}

function refuse(message: string, hint: string): never {
  throw new LiftError('BAD_INPUT', message, { hint });
}

/** The run to compile: the last calls' actions on one program, every one of which must have held. */
function cleanRun(journal: readonly JournalEntry[], calls: number): JournalEntry[] {
  const last = journal.at(-1);
  if (!last)
    refuse('Nothing was done on a desktop window yet.', 'Do the task once with act_window, then learn it.');
  const run = journal.filter((entry) => entry.call > last.call - calls);
  if (run.some((entry) => entry.program !== last.program)) {
    refuse('The run spans two programs; a skill drives one.', 'Learn from fewer calls ("calls": 1).');
  }
  const failed = run.findIndex((entry) => !entry.ok);
  if (failed >= 0) {
    refuse(
      `The run was not clean: action ${failed + 1} (${run[failed]!.op}) failed or was refused.`,
      'Start the task again (start_program starts a new run once the program is restarted) and do it without failures.',
    );
  }
  return run;
}

/** Replaces each input's value in a typed text with its placeholder, longest values first. */
function templated(text: string, values: ReadonlyArray<[string, string]>, used: Set<string>): string {
  let out = text;
  for (const [name, value] of values) {
    if (value !== '' && out.includes(value)) {
      out = out.split(value).join(`{{${name}}}`);
      used.add(name);
    }
  }
  return out;
}

function sameLocator(a: Locator | undefined, b: Locator | undefined): boolean {
  return a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

function stepOf(
  entry: JournalEntry,
  values: ReadonlyArray<[string, string]>,
  used: Set<string>,
  readTarget: Locator,
): SkillStep {
  // A check on the control that shows the answer held for the run's numbers only: the final read replaces it.
  const keep = entry.expect && !sameLocator(entry.expect.locator, readTarget);
  const expect = keep
    ? {
        expect: {
          ...(entry.expect!.locator ? { target: entry.expect!.locator } : {}),
          text_contains: templated(entry.expect!.textContains, values, used),
        },
      }
    : {};
  const changes = entry.changed !== false;
  switch (entry.op) {
    case 'invoke':
      return { version: 1, changes, op: 'invoke', target: entry.locator!, ...expect };
    case 'toggle':
      return {
        version: 1,
        changes,
        op: 'toggle',
        target: entry.locator!,
        ...(entry.checked !== undefined ? { checked: entry.checked } : {}),
        ...expect,
      };
    case 'set_value':
      return {
        version: 1,
        changes,
        op: 'set_value',
        target: entry.locator!,
        value: templated(String(entry.value), values, used),
        ...expect,
      };
    case 'type':
      return {
        version: 1,
        changes,
        op: 'type',
        ...(entry.locator ? { target: entry.locator } : {}),
        text: templated(entry.text!, values, used),
        ...expect,
      };
    case 'key':
    case 'shortcut':
      return { version: 1, changes, op: 'key', keys: entry.keys!, ...expect };
  }
}

/**
 * Compiles a clean desktop run into a skill: the actions in order with their controls as
 * locators, every input's value replaced by a typed placeholder, the window's fingerprint
 * from before the first action, and the read of the control that shows the answer. Values
 * that never reached a typed text, and runs with a failure, are refused.
 */
export function compileSkill(request: CompileRequest): DesktopSkill {
  const run = cleanRun(request.journal, request.calls ?? 1);
  const names = intentInputs(request.intent);
  const given = Object.keys(request.values);
  if (
    names.join(',') !== [...names].filter((name) => given.includes(name)).join(',') ||
    names.length !== given.length
  ) {
    refuse(
      `The intent names the inputs {${names.join('}, {')}} but values were given for ${given.join(', ') || 'none'}.`,
      'Give one value per {placeholder} of the intent: the value it had in the run.',
    );
  }
  const readTarget = request.read ?? [...run].reverse().find((entry) => entry.readLocator)?.readLocator;
  if (!readTarget) {
    refuse(
      'The run never checked a control, so the skill would not know where the answer shows.',
      'Pass "read": the control that shows the answer, by role, name and id.',
    );
  }
  const values = Object.entries(request.values)
    .map(([name, value]): [string, string] => [name, String(value)])
    .sort((a, b) => b[1].length - a[1].length);
  const used = new Set<string>();
  const steps = run.map((entry) => stepOf(entry, values, used, readTarget));
  const unused = names.filter((name) => !used.has(name));
  if (unused.length > 0) {
    refuse(
      `The value of ${unused.join(', ')} was never typed in the run, so it cannot become a placeholder.`,
      'Type the values in the run (for example the whole expression in one type action), then learn it.',
    );
  }
  const skill = {
    schemaVersion: SKILL_SCHEMA_VERSION,
    kind: 'desktop-skill' as const,
    name: request.name,
    intent: request.intent,
    program: run[0]!.program,
    window: run[0]!.windowTitle,
    inputs: names.map((name) => {
      const value = request.values[name]!;
      const type = typeof value === 'number' ? 'number' : 'string';
      return { name, type, example: String(value) };
    }),
    fingerprint: run[0]!.fingerprint,
    steps,
    read: { target: readTarget, output: request.output ?? 'result' },
    provenance: {
      runId: request.runId,
      createdAt: new Date().toISOString(),
      liftVersion: request.liftVersion,
    },
  };
  const parsed = DesktopSkillSchema.safeParse(skill);
  if (!parsed.success)
    refuse(
      `The compiled skill is not valid: ${parsed.error.message}`,
      'This is a bug; the run log has the journal.',
    );
  return parsed.data;
}
