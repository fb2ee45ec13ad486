import { MEMBER_NOTE_SCRIPT, memberNoteTask } from '../apps/backoffice/member-lookup-script.js';
import { type Envelope, isPending, isSuccess } from '../contract/envelope.js';
import type { DiscoveryResult } from '../discover/run.js';
import { capabilityTool } from '../replay/tool.js';
import { passwordFormSignIn } from '../rungs/ui/sign-in.js';
import { isModelEvent } from '../store/runs.js';
import { discover } from './discover.js';
import { DEMO_SECRET, type DemoStage, type LedgerRow } from './stage.js';

export interface WriteReport {
  discovery: DiscoveryResult & { revision: string };
  capability: string;
  approvalId: string;
  approved: Envelope;
  landed: boolean;
  modelEvents: number;
  row: LedgerRow;
}

/** Phase three, a visible write: compiled the same way, registered with a review gate, approved by a person. */
export async function heldWrite(stage: DemoStage): Promise<WriteReport> {
  const { fixture, runtime, deps } = stage;
  const note = `Called back about the replacement card (${new Date().toISOString().slice(0, 10)}).`;
  const discovery = await discover(
    stage,
    memberNoteTask(fixture.origin, 'M-1003', 'Discovery note: verified address.'),
    MEMBER_NOTE_SCRIPT,
  );
  if (!discovery.capability || !discovery.revision)
    throw new Error(`Write discovery did not complete: ${discovery.status.reason}`);
  const registration = await deps.registrations.register({
    name: discovery.capability.name,
    revision: discovery.revision,
    effectClass: 'visible',
    signIn: passwordFormSignIn(fixture.user, { secret: DEMO_SECRET }),
  });
  runtime.registry.add(capabilityTool(discovery.capability, registration, deps));
  const started = performance.now();
  const held = await runtime.invoke(registration.name, {
    memberId: 'M-1001',
    note,
    request_id: 'demo-note-1',
  });
  if (!isPending(held)) throw new Error(`The write was not held: ${JSON.stringify(held)}`);
  stage.say(`[demo] held for ${held.pending.gate}: ${held.pending.preview}`);
  stage.say(`[demo] approving ${held.pending.approval_id} as 'demo operator'`);
  const approved: Envelope = await runtime.approve(held.pending.approval_id, { by: 'demo operator' });
  const ms = Math.round(performance.now() - started);
  const landed =
    fixture
      .members()
      .find((member) => member.id === 'M-1001')
      ?.notes.some((entry) => entry.text === note) ?? false;
  const events = await runtime.store.runs.events(approved.run_id);
  stage.say(
    `[demo] approved write: ${isSuccess(approved) ? approved.summary : JSON.stringify(approved)}; note in the fixture's data: ${landed ? 'yes' : 'NO'}`,
  );
  const modelEvents = events.filter(isModelEvent).length;
  return {
    discovery: { ...discovery, revision: discovery.revision },
    capability: registration.name,
    approvalId: held.pending.approval_id,
    approved,
    landed,
    modelEvents,
    row: {
      task: 'write: add note, held then approved',
      model: modelEvents,
      tools: 1,
      ui: events.filter((event) => event.type === 'replay-step-end').length,
      tokens: 0,
      ms,
      checks: isSuccess(approved) && approved.ok && landed ? 'approved, 2/2' : 'failed',
    },
  };
}
