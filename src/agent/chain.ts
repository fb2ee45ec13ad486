import { z } from 'zod';
import { type AnyTool, defineTool } from '../contract/define-tool.js';
import type { Check, Envelope, SuccessEnvelope } from '../contract/envelope.js';
import { isError, isPending } from '../contract/envelope.js';
import { LiftError } from '../contract/errors.js';
import { jsonSchemaOf } from '../contract/json-schema.js';
import { RequestIdSchema } from '../contract/request-id.js';
import { checkCounts } from './envelope-text.js';
import { type Reference, referencePaths, referencesIn, resolveReferences } from './references.js';

export const RUN_CHAIN = 'run_chain';

const Step = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,31}$/)
    .describe('A short name later steps use in references, e.g. plan'),
  tool: z.string().min(1).max(100).describe('The tool to call'),
  args: z
    .record(z.string(), z.unknown())
    .describe('Its arguments; "$ID.fields.NAME" or "$ID.files.KIND" take a value from an earlier step'),
});

const Input = z.strictObject({
  steps: z.array(Step).min(1).max(20).describe('Run in order.'),
  request_id: RequestIdSchema.optional(),
});

const StepId = z.string().describe("The step's id.");
const StepTool = z.string().describe('The tool it called.');

const StepReport = z.object({
  id: StepId,
  tool: StepTool,
  ok: z.boolean().describe('False when a check failed.'),
  summary: z.string().describe("The tool's summary."),
  checks_passed: z.number().describe('Checks that passed.'),
  checks_total: z.number().describe('Checks run.'),
  files: z.record(z.string(), z.string()).describe('Files it wrote, by kind: {"pdf": "/abs/path.pdf"}.'),
  fields: z.record(z.string(), z.unknown()).describe("The tool's fields."),
  duration_ms: z.number().describe('Milliseconds it took.'),
});

const Output = z.object({
  steps: z.array(StepReport).describe('Steps that ran, in order.'),
  held: z
    .object({
      id: StepId,
      tool: StepTool,
      approval_id: z.string().describe('For approval_status.'),
      gate: z.enum(['review', 'signature']).describe('signature: the person also types a phrase.'),
      preview: z.string().describe('What the person is shown.'),
      confirmation_phrase: z.string().optional().describe('The phrase a signature needs.'),
    })
    .optional()
    .describe("The step waiting for a person's yes; the rest did not run."),
  failed: z
    .object({
      id: StepId,
      tool: StepTool,
      reason: z.string().describe('Error code and message, or the failed check.'),
    })
    .optional()
    .describe('The step that stopped the chain.'),
  not_run: z.array(z.string()).describe('Ids of the steps that did not run.'),
});
export type ChainFields = z.infer<typeof Output>;
type ChainStep = z.infer<typeof Step>;

/** Field names a tool's output declares, or undefined when its output is not a closed object. */
function declaredFields(tool: AnyTool): Set<string> | undefined {
  const schema = jsonSchemaOf(tool.output, 'output');
  if (schema.type !== 'object' || !schema.properties) return undefined;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return undefined;
  return new Set(Object.keys(schema.properties));
}

/** Rejects the chain before anything runs: unknown tools, repeated ids, references that name nothing. */
function validate(steps: ChainStep[], lookup: (name: string) => AnyTool | undefined): Map<string, AnyTool> {
  const seen = new Map<string, AnyTool>();
  const reject = (message: string, hint: string): never => {
    throw new LiftError('BAD_INPUT', message, { hint, outcome: 'not_started' });
  };
  for (const step of steps) {
    if (seen.has(step.id)) reject(`Two steps are called '${step.id}'.`, 'Give every step its own id.');
    if (step.tool === RUN_CHAIN)
      reject(`Step '${step.id}' calls run_chain inside a chain.`, 'Write all the steps in one chain.');
    const tool = lookup(step.tool);
    if (!tool)
      reject(
        `Step '${step.id}' calls '${step.tool}', which is not a tool.`,
        'Use only the tools you were given.',
      );
    for (const reference of referencesIn(step.args)) checkReference(step, reference, seen, reject);
    checkArguments(step, tool!, reject);
    seen.set(step.id, tool!);
  }
  return seen;
}

/** Whether one key path starts with another. */
const startsWith = (path: readonly PropertyKey[], prefix: readonly PropertyKey[]) =>
  prefix.every((key, index) => path[index] === key);

/**
 * Every step's arguments are checked against its tool's input now, so that a bad argument in
 * a later step stops the chain before an earlier step runs (a wrong scale in step 3 used to
 * fail after the 12 s of work before it). What a reference will hold is known only once its
 * step ran: a complaint about a referenced argument, or about an object or list around one,
 * waits for then; one about a literal argument, a missing one or an unknown name does not.
 */
function checkArguments(
  step: ChainStep,
  tool: AnyTool,
  reject: (message: string, hint: string) => never,
): void {
  const parsed = tool.input.safeParse(step.args);
  if (parsed.success) return;
  const referenced = referencePaths(step.args);
  const literal = parsed.error.issues.filter(
    (issue: z.core.$ZodIssue) =>
      !referenced.some(
        (path) => startsWith(issue.path, path) || (issue.path.length > 0 && startsWith(path, issue.path)),
      ),
  );
  if (literal.length === 0) return;
  reject(
    `Step '${step.id}' gives ${tool.name} input it refuses:\n${z.prettifyError({ issues: literal })}`,
    `Fix the arguments of step '${step.id}'; a correct call of ${tool.name}: ${JSON.stringify(tool.example)}.`,
  );
}

function checkReference(
  step: ChainStep,
  reference: Reference,
  earlier: Map<string, AnyTool>,
  reject: (message: string, hint: string) => never,
): void {
  const source = earlier.get(reference.step);
  if (!source) {
    const known = [...earlier.keys()].join(', ') || 'none';
    reject(
      `Step '${step.id}' refers to ${reference.text}, but no earlier step is called '${reference.step}' (earlier: ${known}).`,
      'A reference names a step that comes before it in the list.',
    );
  }
  if (reference.part !== 'fields') return;
  const fields = declaredFields(source!);
  if (fields && !fields.has(reference.name)) {
    reject(
      `Step '${step.id}' refers to ${reference.text}, but ${source!.name} returns no field '${reference.name}' (it returns ${[...fields].join(', ')}).`,
      `Use one of the fields ${source!.name} returns.`,
    );
  }
}

function reportOf(id: string, envelope: SuccessEnvelope): z.infer<typeof StepReport> {
  const counts = checkCounts(envelope);
  return {
    id,
    tool: envelope.tool,
    ok: envelope.ok,
    summary: envelope.summary,
    checks_passed: counts.passed,
    checks_total: counts.total,
    files: envelope.files,
    fields: envelope.fields,
    duration_ms: envelope.duration_ms,
  };
}

function reasonOf(envelope: Envelope): string {
  if (isPending(envelope)) return 'held';
  if (isError(envelope)) return `${envelope.error.code}: ${envelope.error.message} ${envelope.error.hint}`;
  const failed = envelope.checks
    .filter((check) => !check.passed)
    .map((check) => check.name + (check.detail ? ` (${check.detail})` : ''));
  return `check failed: ${failed.join('; ')}`;
}

/**
 * The built-in run_chain tool: dependent tool calls planned in one model call. It validates the chain
 * against the declarations of the tools it names before anything runs (through the call's own
 * registry unless a lookup is given).
 */
export function createRunChain(lookup?: (name: string) => AnyTool | undefined) {
  return defineTool({
    name: RUN_CHAIN,
    title: 'Run a chain of tool calls',
    description:
      'Run several tool calls in order, in one go. steps: [{"id", "tool", "args"}]. An argument written "$ID.fields.NAME" ' +
      'or "$ID.files.KIND" is replaced by that value from an earlier step. The chain is checked before anything runs, ' +
      "stops at the first failed check (naming the step), and holds a step that needs a person's yes. Returns each step that ran (summary, checks, fields, files), and the step held or failed with those not run.",
    group: 'agent',
    rung: 'api',
    input: Input,
    output: Output,
    cap: {
      chars: 12_000,
      narrow: 'Each step result is in the run log; ask for one step again with its tool.',
    },
    errors: {
      BAD_INPUT: {
        hint: 'Fix the step named in the message; every reference must name an earlier step and a field it returns.',
      },
    },
    effect: {
      class: 'reversible',
      gate: 'log',
      repeat:
        "Each step keeps its own contract: a repeated step with the same request_id is done once. A repeat of the whole chain with the chain's own request_id returns the first result.",
    },
    timeout: { deadlineMs: 600_000 },
    example: {
      steps: [
        { id: 'plan', tool: 'draw_house_plan', args: { plot: '10 marla', bedrooms: 3 } },
        { id: 'view', tool: 'render_plan_3d', args: { plan_file: '$plan.files.plan' } },
      ],
    },
    async run(input, ctx) {
      const tools = validate(input.steps, lookup ?? ((name) => ctx.tool(name)));
      // Paths named outright are held to their roots before the first step runs.
      for (const step of input.steps) {
        const tool = tools.get(step.id)!;
        if (!tool.paths || referencesIn(step.args).length > 0) continue;
        for (const { path, scope } of tool.paths(tool.input.parse(step.args))) ctx.resolvePath(path, scope);
      }
      const done = new Map<string, SuccessEnvelope>();
      const fields: ChainFields = { steps: [], not_run: [] };
      const checks: Check[] = [];
      let changed = false;
      for (const [index, step] of input.steps.entries()) {
        const rest = () => input.steps.slice(index + 1).map((later) => later.id);
        let args: unknown;
        try {
          args = resolveReferences(step.args, done, step.id);
        } catch (error) {
          if (!(error instanceof LiftError)) throw error;
          fields.failed = { id: step.id, tool: step.tool, reason: error.message };
          checks.push({ name: `${step.id}: references resolve`, passed: false, detail: error.message });
          fields.not_run = [step.id, ...rest()];
          break;
        }
        if (index > 0) ctx.markStarted();
        const envelope = await ctx.call(step.tool, args);
        ctx.emit({ type: 'chain-step-end', id: step.id, tool: step.tool, ok: envelope.ok });
        if (isPending(envelope)) {
          const { approval_id, gate, preview, confirmation_phrase } = envelope.pending;
          fields.held = {
            id: step.id,
            tool: step.tool,
            approval_id,
            gate,
            preview,
            ...(confirmation_phrase ? { confirmation_phrase } : {}),
          };
          fields.not_run = rest();
          break;
        }
        if (isError(envelope)) {
          fields.failed = { id: step.id, tool: step.tool, reason: reasonOf(envelope) };
          checks.push({
            name: `${step.id}: ${step.tool} ran`,
            passed: false,
            detail: `${envelope.error.code}: ${envelope.error.message}`,
          });
          fields.not_run = rest();
          break;
        }
        ctx.markStarted();
        done.set(step.id, envelope);
        changed ||= envelope.effect === 'changed';
        fields.steps.push(reportOf(step.id, envelope));
        for (const check of envelope.checks) checks.push({ ...check, name: `${step.id}: ${check.name}` });
        if (!envelope.ok) {
          fields.failed = { id: step.id, tool: step.tool, reason: reasonOf(envelope) };
          fields.not_run = rest();
          break;
        }
      }
      return {
        fields,
        checks,
        summary: summarise(fields),
        effect: changed ? 'changed' : 'none',
      };
    },
  });
}

function summarise(fields: ChainFields): string {
  const ran = fields.steps.map((step) => step.id).join(', ') || 'nothing';
  if (fields.failed)
    return `Stopped at step '${fields.failed.id}' (${fields.failed.tool}): ${fields.failed.reason}. Ran: ${ran}.`;
  if (fields.held) return `Ran: ${ran}. Step '${fields.held.id}' is held for a yes: ${fields.held.preview}`;
  return `Ran all ${fields.steps.length} steps: ${ran}.`;
}
