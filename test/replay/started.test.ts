import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Capability } from '../../src/capability/capability.js';
import { revisionOf } from '../../src/capability/capability.js';
import {
  type BackofficeServer,
  type ScenarioName,
  startBackoffice,
} from '../../src/fixtures/backoffice/index.js';
import { capabilityDeps } from '../../src/replay/load.js';
import { capabilityTool } from '../../src/replay/tool.js';
import { passwordFormSignIn } from '../../src/rungs/ui/sign-in.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { launchChromium, memberNoteCapability, signedInPage, tempHome } from './helpers.js';

/**
 * One notion of "started": a write sent with Enter (no click anywhere in it) that fails after
 * the submit reports outcome unknown, the ledger keeps its request id, and an expired
 * session never makes the replay start over and send the write a second time.
 */
let fixture: BackofficeServer;
let capability: Capability;
let runtime: Runtime;
const home = tempHome();

beforeAll(async () => {
  fixture = await startBackoffice();
  const browser = await launchChromium();
  try {
    capability = await memberNoteCapability(await signedInPage(browser, fixture), fixture.origin, 'enter');
  } finally {
    await browser.close();
  }
  runtime = new Runtime({ home: home.home, env: { LIFT_SECRET_BACKOFFICE_PASSWORD: 'backoffice-demo' } });
  const deps = capabilityDeps(runtime);
  await deps.capabilities.save(capability);
  const registration = await deps.registrations.register({
    name: capability.name,
    revision: revisionOf(capability),
    effectClass: 'reversible',
    signIn: passwordFormSignIn(fixture.user, { secret: 'backoffice_password' }),
  });
  runtime.registry.add(capabilityTool(capability, registration, deps));
});
afterAll(async () => {
  await runtime?.close();
  await fixture?.close();
  home.cleanup();
});

const notes = (id: string, text: string) =>
  fixture
    .members()
    .find((member) => member.id === id)!
    .notes.filter((note) => note.text === text);

async function addNote(scenario: ScenarioName, memberId: string, note: string, requestId: string) {
  fixture.setScenario(scenario);
  try {
    return await runtime.invoke(capability.name, { memberId, note, request_id: requestId });
  } finally {
    fixture.setScenario('normal');
  }
}

describe('a write submitted with Enter', () => {
  it('that fails after the submit reports outcome unknown, and the ledger keeps the request id', async () => {
    const note = 'CANARY-ENTER-FAILS';
    const first = await addNote('note_submit_fails', 'M-1002', note, 'note-enter-fails-1');
    expect(first).toMatchObject({ ok: false, error: { code: 'APP_ERROR', outcome: 'unknown' } });
    expect(notes('M-1002', note)).toHaveLength(1);

    const retried = await addNote('note_submit_fails', 'M-1002', note, 'note-enter-fails-1');
    expect(retried).toMatchObject({ ok: false, error: { code: 'OUTCOME_UNKNOWN', outcome: 'unknown' } });
    expect(notes('M-1002', note)).toHaveLength(1);
  });

  it('whose session expires after the submit is not signed in again and sent twice', async () => {
    const note = 'CANARY-ENTER-EXPIRES';
    const result = await addNote('note_submit_expires', 'M-1005', note, 'note-enter-expires-1');
    expect(result).toMatchObject({ ok: false, error: { code: 'AUTH_REQUIRED', outcome: 'unknown' } });
    expect(notes('M-1005', note)).toHaveLength(1);
    expect(
      fixture
        .requests()
        .filter((entry) => entry.method === 'POST' && entry.path === '/app/members/M-1005/notes'),
    ).toHaveLength(1);
  });
});
