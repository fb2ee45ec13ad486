import { z } from 'zod';
import type { ToolContext } from '../contract/context.js';
import { type AnyTool, defineTool } from '../contract/define-tool.js';
import { LiftError } from '../contract/errors.js';
import { RequestIdSchema } from '../contract/request-id.js';
import { LIFT_VERSION } from '../contract/version.js';
import { NamedTargetSchema } from '../rungs/desktop/actions.js';
import { desktopSession } from '../rungs/desktop/context.js';
import type { DesktopSkill } from '../rungs/desktop/skill/format.js';
import { SkillStore } from '../rungs/desktop/skill/store.js';
import type { Runtime } from '../runtime/runtime.js';
import { type Registration, Registrations } from './registrations.js';

/** What learned skills need of their runtime: the skill store, the registrations, and its registry. */
export interface SkillDeps {
  skills: SkillStore;
  registrations: Registrations;
  add: (tool: AnyTool) => void;
}

export const SKILL_DEPS_SERVICE = 'desktop-skills';

const INPUT_TYPES = { number: z.number(), integer: z.number().int(), string: z.string().max(500) } as const;

/**
 * A registered skill as a tool: its typed placeholders as input, the final read as output.
 * Every call re-hashes the stored skill, checks the switch, and replays without a model;
 * two SURFACE_CHANGED in a row switch it off like a web capability.
 */
export function skillTool(skill: DesktopSkill, registration: Registration, deps: SkillDeps): AnyTool {
  const input = z.strictObject(
    Object.fromEntries(skill.inputs.map((spec) => [spec.name, INPUT_TYPES[spec.type]])),
  );
  const output = z.object({ [skill.read.output]: z.string() });
  return defineTool({
    name: skill.name,
    title: skill.intent,
    description: `${skill.intent} in ${skill.program}: replays learned skill ${registration.revision.slice(0, 12)} (${skill.steps.length} steps) with no model, only when the window still looks as it did, and returns what ${skill.read.target.role} "${skill.read.target.name || skill.read.target.id}" shows.`,
    // With the desktop tools: a request that names the program is offered its skills too.
    group: 'desktop',
    rung: 'script',
    input,
    output,
    verifiedBy: `the window's fingerprint before the first step, then a read of ${skill.read.target.role} "${skill.read.target.name || skill.read.target.id}"`,
    errors: {
      CAPABILITY_DISABLED: {
        hint: 'This skill failed twice in a row and was switched off. Do the task with act_window and learn it again, or re-enable it (lift capabilities enable NAME).',
      },
      REVISION_MISMATCH: {
        hint: 'The stored skill no longer hashes to its registered revision. Learn it again.',
      },
      SURFACE_CHANGED: {
        hint: 'The window no longer looks like the one this skill learned on; nothing was done. Use observe_window and act_window.',
      },
      NO_CHANGE: { hint: 'A step changed nothing in the window; observe it before calling again.' },
      UNEXPECTED_STATE: {
        hint: 'The window did not show what a step expected; observe it before calling again.',
      },
    },
    effect: { class: registration.effectClass },
    timeout: { deadlineMs: 30_000, settle: `observe_window with program ${skill.program}` },
    example: Object.fromEntries(
      skill.inputs.map((spec) => [spec.name, spec.type === 'string' ? spec.example : Number(spec.example)]),
    ),
    run: async (raw, ctx) => runSkill(registration.name, deps, raw as Record<string, unknown>, ctx),
  });
}

async function runSkill(name: string, deps: SkillDeps, inputs: Record<string, unknown>, ctx: ToolContext) {
  const current = deps.registrations.get(name);
  if (!current?.enabled) {
    throw new LiftError(
      'CAPABILITY_DISABLED',
      `${name} is switched off: ${current?.disabledReason ?? 'it was disabled'}.`,
      {
        outcome: 'not_started',
      },
    );
  }
  const skill = deps.skills.load(current.revision);
  const session = await desktopSession(ctx);
  const { replaySkill } = await import('../rungs/desktop/skill/replay.js');
  try {
    ctx.markStarted();
    const result = await replaySkill(skill, inputs, {
      session,
      deadline: ctx.deadline - 200,
      emit: (event) => ctx.emit(event),
    });
    deps.registrations.recordSurfaceOk(name);
    return {
      fields: { [skill.read.output]: result.output },
      summary: `${skill.name}: ${skill.read.output} "${result.output.slice(0, 80)}" read back after ${result.steps} steps in ${result.durationMs} ms`,
      checks: [
        {
          name: 'read back',
          passed: result.output.trim() !== '',
          detail: `${skill.read.target.role} "${skill.read.target.name || skill.read.target.id}" shows a value`,
        },
      ],
    };
  } catch (error) {
    if (error instanceof LiftError && error.code === 'SURFACE_CHANGED') {
      if (deps.registrations.recordSurfaceChanged(name, error.message))
        ctx.emit({ type: 'capability-disabled', name });
    }
    throw error;
  }
}

async function skillDeps(ctx: ToolContext): Promise<SkillDeps> {
  return ctx.service<SkillDeps>(SKILL_DEPS_SERVICE, () => {
    throw new LiftError('NOT_CONFIGURED', 'This runtime keeps no skill store.', {
      hint: 'Open the runtime with addDesktopSkillTools(runtime) (the lift command does).',
    });
  });
}

export const learnSkill = defineTool({
  name: 'learn_skill',
  title: 'Learn a desktop task as a skill',
  description:
    'Compiles the desktop run just done (the actions of the last act_window call, or of the last "calls" calls, all of which held) into a skill: controls named by locators, the values you give turned into typed placeholders, and a final read of the control that shows the answer. The skill becomes a tool of its own that replays in milliseconds with no model, only while the window looks as it did. Example intent: "calculate {a} + {b}" with values {"a": 12, "b": 30}. Returns the new tool\'s name, revision and inputs.',
  group: 'desktop',
  rung: 'script',
  input: z.strictObject({
    name: z
      .string()
      .regex(/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/, 'snake_case, verb_object')
      .describe('Name of the new tool, verb_object: calculate_sum.'),
    intent: z
      .string()
      .min(1)
      .max(300)
      .describe('What it does, {placeholders} included: "calculate {a} + {b}".'),
    values: z
      .record(z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]*$/), z.union([z.number(), z.string().min(1).max(200)]))
      .describe('The value each placeholder had in the run: {"a": 12, "b": 30}.'),
    read: NamedTargetSchema.extend({ role: z.string().min(1).max(40).describe('As shown: "label".') })
      .optional()
      .describe("The control that shows the answer (default: the one the run's last check read)."),
    calls: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(1)
      .describe('How many of the last act_window calls make the run.'),
    request_id: RequestIdSchema.optional(),
  }),
  output: z.object({
    tool: z.string().describe('The new tool, now listed.'),
    revision: z.string().describe('SHA-256 of the stored skill.'),
    steps: z.number().int().describe('Steps it replays.'),
    inputs: z.array(z.string()).describe('Its inputs with their types: "a: number".'),
  }),
  verifiedBy: 'the compiled skill validates against its schema and is stored under its SHA-256 revision',
  errors: {
    BAD_INPUT: { hint: 'The run cannot become a skill as it is; the message says why.' },
    NOT_CONFIGURED: { hint: 'This runtime keeps no skill store.' },
  },
  effect: {
    class: 'reversible',
    repeat:
      'Learning the same run again stores the same revision and registers it again. Learning uses up the run: a retry with the same request_id returns the first result.',
  },
  timeout: { deadlineMs: 10_000 },
  example: { name: 'calculate_sum', intent: 'calculate {a} + {b}', values: { a: 12, b: 30 } },
  run: async (input, ctx) => {
    const session = await desktopSession(ctx);
    const deps = await skillDeps(ctx);
    const { compileSkill } = await import('../rungs/desktop/skill/compile.js');
    const read = input.read && {
      role: input.read.role,
      name: input.read.name ?? '',
      ...(input.read.id ? { id: input.read.id } : {}),
      nth: input.read.nth ?? 0,
    };
    const skill = compileSkill({
      journal: session.journal,
      name: input.name,
      intent: input.intent,
      values: input.values,
      ...(read ? { read } : {}),
      calls: input.calls,
      runId: ctx.runId,
      liftVersion: LIFT_VERSION,
    });
    const { revision } = deps.skills.save(skill);
    const registration = deps.registrations.register({
      name: skill.name,
      revision,
      effectClass: 'reversible',
    });
    deps.add(skillTool(skill, registration, deps));
    session.journal.length = 0;
    return {
      fields: {
        tool: skill.name,
        revision,
        steps: skill.steps.length,
        inputs: skill.inputs.map((spec) => `${spec.name}: ${spec.type}`),
      },
      summary: `Learned ${skill.name} (${revision.slice(0, 12)}): ${skill.steps.length} steps, inputs ${skill.inputs.map((spec) => `${spec.name} (${spec.type})`).join(', ') || 'none'}, reads ${skill.read.target.role} "${skill.read.target.name || skill.read.target.id}"`,
    };
  },
});

export const tools: AnyTool[] = [learnSkill];

/** Registers the skill store on the runtime and offers every registered skill as a tool. */
export function addDesktopSkillTools(runtime: Runtime): Runtime {
  const deps: SkillDeps = {
    skills: new SkillStore(runtime.store.db, runtime.home),
    registrations: new Registrations(runtime.store.db),
    add: (tool) => runtime.registry.add(tool),
  };
  void runtime.service(SKILL_DEPS_SERVICE, () => deps);
  for (const registration of deps.registrations.list()) {
    if (!deps.skills.has(registration.revision)) continue;
    try {
      runtime.registry.add(skillTool(deps.skills.load(registration.revision), registration, deps));
    } catch {
      // A changed or missing skill file is not offered; calling it by name says UNKNOWN_TOOL.
    }
  }
  return runtime;
}
