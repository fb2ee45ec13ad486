import {
  bindPlaceholders,
  type Capability,
  fillTemplate,
  type OutcomeSign,
  type Step,
} from '../capability/capability.js';
import { canChangeState } from '../capability/effects.js';
import { type PageAnswer, type PageText, targetOfText } from '../capability/page-texts.js';
import { LiftError } from '../contract/errors.js';
import { shapedByInputs } from '../replay/absence.js';
import type { UiActionInput } from '../rungs/ui/actions.js';
import type { Target } from '../rungs/ui/locator.js';
import { parameteriseText } from './compile.js';
import type { UiDriver } from './types.js';

/** An example input of an outcome other than found, as `complete` takes it. */
export interface OutcomeExample {
  outcome: OutcomeSign['outcome'];
  inputs: Record<string, string>;
}

/** How long a rehearsed read or wait looks for its target before the example has diverged. */
const LOOK_MS = 2_000;

/** Where the example parted from the found path: after how many steps, and what the page showed there. */
interface Divergence {
  after: number;
  status: number | undefined;
  shows: Target[];
  /** A text the found path never showed, naming no input ("No data to display"), and the page's structure. */
  message?: Target;
  structure?: string;
}

/** A compiled step as the UI rung runs it, with the example's values typed in as they are. */
function actionOf(step: Step, inputs: Record<string, string>, origin: string): UiActionInput {
  const value = (raw: Extract<Step, { value: unknown }>['value']) =>
    'input' in raw
      ? (inputs[raw.input] ?? '')
      : 'template' in raw
        ? fillTemplate(raw.template, inputs)
        : raw.literal;
  const target = 'target' in step ? bindPlaceholders(step.target, inputs) : undefined;
  switch (step.op) {
    case 'navigate':
      return {
        op: 'navigate',
        url: new URL(fillTemplate(step.path, inputs, encodeURIComponent), origin).href,
      };
    case 'type':
      return {
        op: 'type',
        target: target!,
        value: value(step.value),
        ...(step.clear === false ? { clear: false } : {}),
      };
    case 'fill':
    case 'select':
      return { op: step.op, target: target!, value: value(step.value) };
    case 'check':
      return { op: 'check', target: target!, checked: step.checked };
    case 'press':
      return { op: 'press', target: target!, key: step.key };
    case 'click':
      return { op: 'click', target: target! };
    // A read is only looked for: the example's values go nowhere.
    case 'wait_for':
    case 'read':
      return { op: 'wait_for', target: target!, timeoutMs: LOOK_MS };
  }
}

/**
 * The texts of the page that name one of the example's inputs and that no page of discovery
 * showed (its inputs turned back into placeholders), headings and messages first.
 */
function evidenceIn(answer: PageAnswer, example: OutcomeExample, seen: ReadonlySet<string>): Target[] {
  return answer.texts
    .map((text) => ({ ...text, text: parameteriseText(text.text, example.inputs) }))
    .filter((text) => text.text.includes('{{input.') && !seen.has(textKey(text)))
    .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind])
    .slice(0, 3)
    .map(targetOfText);
}

/**
 * Runs the capability's steps on the discovery page with the example's inputs until the
 * example parts from the path discovery took. For not_found: a step whose target is not
 * there (the page answered otherwise). For already_exists: the first page that shows
 * evidence of the record, and at the latest the first step that could change the
 * application (a rehearsal never writes). Undefined when every step ran: the example
 * behaved like a found record.
 */
async function divergence(
  ui: UiDriver,
  capability: Capability,
  example: OutcomeExample,
  seen: ReadonlySet<string>,
): Promise<Divergence | undefined> {
  const at = async (after: number): Promise<Divergence> => {
    const answer = await ui.pageAnswer({ loaded: true });
    const shows = evidenceIn(answer, example, seen);
    if (shows.length > 0) return { after, status: answer.status, shows };
    // An answer that names no input: a message of its own, known together with the page's structure.
    const message = newMessageIn(answer, example, seen);
    const structure = message ? (await ui.fingerprint()).fingerprint : undefined;
    return {
      after,
      status: answer.status,
      shows,
      ...(message && structure ? { message, structure } : {}),
    };
  };
  for (const [index, step] of capability.steps.entries()) {
    if (example.outcome === 'already_exists' && index > 0) {
      // Stop before the form is touched: the record's own page is answer enough.
      const here = await at(index);
      if (here.shows.length > 0 || canChangeState(step)) return here;
    }
    const action = actionOf(step, example.inputs, capability.preconditions.origin);
    const [result] = await ui.act([action]);
    // A target that is not there parts the example from the found path; a slow load does not.
    const looked = step.op === 'read' || step.op === 'wait_for';
    if (result?.status !== 'executed' || (looked && result.code === 'TIMEOUT')) return at(index);
  }
  return undefined;
}

/**
 * The example page's own answer when none of its texts names an input: its first message (or
 * heading, or short text) that no page of discovery showed, as a target to find it again.
 */
function newMessageIn(
  answer: PageAnswer,
  example: OutcomeExample,
  seen: ReadonlySet<string>,
): Target | undefined {
  const text = answer.texts
    .map((text) => ({ ...text, text: parameteriseText(text.text, example.inputs) }))
    .filter((text) => !text.text.includes('{{input.') && !seen.has(textKey(text)))
    .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind])[0];
  return text ? targetOfText(text) : undefined;
}

/** A text's key, to compare what the example showed with what discovery's own pages showed. */
export function textKey(text: PageText): string {
  return `${text.kind}\u0000${text.frame.join('\u0001')}\u0000${text.text}`;
}

/**
 * Learns what the example's outcome looks like: where it parts from the found path, the
 * texts there that name one of its inputs and that no page of discovery showed, and the
 * document's HTTP status when it was an error. Refuses an example that showed nothing of
 * the kind: words alone are no evidence.
 */
export async function learnSign(
  ui: UiDriver,
  capability: Capability,
  example: OutcomeExample,
  seen: ReadonlySet<string>,
): Promise<OutcomeSign | undefined> {
  const diverged = await divergence(ui, capability, example, seen);
  if (!diverged) {
    throw new LiftError(
      'CHECK_FAILED',
      `The ${example.outcome} example ran every step like a found record: it is no example of ${example.outcome}.`,
      { hint: `Give an input for which the application answers ${example.outcome}.` },
    );
  }
  if (diverged.shows.length === 0 && !diverged.message) {
    // A row or record absent from a page built as discovery saw it, which the inputs shaped,
    // needs no sign: replay answers it not_found from that structure (replay/absence.ts).
    if (example.outcome === 'not_found' && (await absentOnTheSamePage(ui, capability, diverged.after)))
      return undefined;
    throw new LiftError(
      'CHECK_FAILED',
      `After step ${diverged.after} the ${example.outcome} example's page shows no heading or message that the found path did not show.`,
      {
        hint: 'Give an example for which the application answers with a message of its own (a "not found" notice, an empty list saying so), or leave the outcome to the HTTP status and the list the capability reads.',
      },
    );
  }
  const { status } = diverged;
  return {
    outcome: example.outcome,
    after: diverged.after,
    ...(status !== undefined && status >= 400 ? { status } : {}),
    shows: diverged.shows,
    ...(diverged.message && diverged.structure
      ? { message: diverged.message, structure: diverged.structure }
      : {}),
  };
}

/** The step's target is missing from a page the inputs shaped, whose skeleton is the one discovery found it on. */
async function absentOnTheSamePage(ui: UiDriver, capability: Capability, index: number): Promise<boolean> {
  const seen = capability.steps[index]?.onPage;
  if (seen === undefined || !shapedByInputs(capability, index)) return false;
  return (await ui.fingerprint()).fingerprint === seen;
}

const KIND_ORDER: Record<PageText['kind'], number> = { heading: 0, message: 1, text: 2 };
