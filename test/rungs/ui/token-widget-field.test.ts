import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { performAction } from '../../../src/rungs/ui/act.js';
import { resolveTarget, type Target } from '../../../src/rungs/ui/locator.js';
import { type PageOnServer, pageOnServer, servesHtml } from './page-on-server.js';

// Shaped like Roundcube Elastic's recipient box: the form's own textarea, which the label
// "To" names, is parked off the page (opacity 0, left -5000px) and hands its focus to a
// visible input in a list of tokens; the input turns what was typed into a token when it
// loses the focus, and only tokens are sent. A person types into the visible input; the
// label points at a box nobody sees. Cc is the same widget in a row hidden until asked for.
const PAGE = `<!doctype html><title>Compose</title><style>
.hidden-row { display: none; }
ul.recipients { list-style: none; display: flex; gap: 4px; border: 1px solid #888; padding: 2px; margin: 0; }
</style><main><form onsubmit="event.preventDefault()">
<div><label for="_to">To</label><div>
<textarea id="_to" name="_to" role="combobox" tabindex="-1"
  style="position: absolute; opacity: 0; left: -5000px; width: 10px"></textarea></div></div>
<div class="hidden-row"><label for="_cc">Cc</label><div>
<textarea id="_cc" name="_cc" role="combobox" tabindex="-1"
  style="position: absolute; opacity: 0; left: -5000px; width: 10px"></textarea></div></div>
<div><label for="subject">Subject</label><input id="subject"></div>
<button type="button" id="send">Send</button>
</form><p id="outcome"></p></main><script>
for (const original of document.querySelectorAll('textarea[role=combobox]')) {
  const list = document.createElement('ul');
  list.className = 'recipients';
  const item = document.createElement('li');
  const input = document.createElement('input');
  input.type = 'text';
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  item.append(input);
  list.append(item);
  original.after(list);
  original.addEventListener('focus', () => input.focus());
  input.addEventListener('change', () => {
    for (const address of input.value.split(/[,;\\s]+/).filter(Boolean)) {
      const token = document.createElement('li');
      token.className = 'recipient';
      token.textContent = address + ',';
      item.before(token);
    }
    input.value = '';
    original.value = [...list.querySelectorAll('.recipient')].map((token) => token.textContent).join(' ');
  });
}
document.getElementById('send').addEventListener('click', () => {
  const to = document.getElementById('_to').value.trim();
  document.getElementById('outcome').textContent = to ? 'Sent to ' + to : 'Nothing sent: no recipient';
});
</script>`;

let served: PageOnServer;

beforeAll(async () => {
  served = await pageOnServer(servesHtml(PAGE), 'lift-token-widget-');
});
afterAll(() => served?.close());
beforeEach(() => served.harness.goto(`${served.origin}/`));

/** Whether the locator matches one element, and that it is the one the other locator names. */
async function namesExactly(locator: Locator, element: Locator): Promise<boolean> {
  if ((await locator.count()) !== 1) return false;
  const handle = await element.elementHandle({ timeout: 2_000 });
  return locator.evaluate((found, other) => found === other, handle);
}

/** An unattended act refuses Send (it reads as irreversible): the test presses it itself. */
const pressSend = () => served.page.getByRole('button', { name: 'Send' }).click();

const VISIBLE_TO = 'main ul.recipients >> nth=0 >> input';
const TO: Target = { frame: [], locator: { by: 'field', label: 'To', role: 'combobox' } };

describe('a recipient box whose label names a hidden textarea and whose visible input takes the typing', () => {
  it("is found by its label as the visible input, not the textarea the label's for points at", async () => {
    const { page } = served;
    expect(await namesExactly(await resolveTarget(page, TO), page.locator(VISIBLE_TO))).toBe(true);
  });

  it('gets a suggested target from observe that names the element its ref names', async () => {
    const { harness, page } = served;
    const { observation, index } = await harness.observe(1);
    expect(observation.text).toMatch(/\nTo\n\[[A-Za-z0-9]+\] combobox ⇒ field "To" combobox/);
    const box = observation.elements.find((element) => element.role === 'combobox' && element.name === '');
    expect(box?.target).toEqual(TO);
    const byRef = page.locator(`aria-ref=${index.elements.get(box!.ref)!.ariaRef}`);
    expect(await namesExactly(await resolveTarget(page, box!.target), byRef)).toBe(true);
  });

  it('filled by its ref, records a unique target, makes a token and is sent', async () => {
    const { harness, page } = served;
    const { observation, index } = await harness.observe(2);
    const box = observation.elements.find((element) => element.role === 'combobox' && element.name === '');
    const env = () => harness.actEnvironment(index.elements, {}, Date.now() + 10_000);
    const filled = await performAction(
      env(),
      { op: 'fill', target: { ref: box!.ref }, value: 'bob@example.test' },
      0,
    );
    expect(filled.status, filled.message).toBe('executed');
    expect(filled.resolved?.notUnique).toBeUndefined();
    expect(filled.resolved?.target).toEqual(TO);
    const subject = observation.elements.find((element) => element.name === 'Subject');
    await performAction(env(), { op: 'fill', target: { ref: subject!.ref }, value: 'Budget review' }, 1);
    await pressSend();
    expect(await page.locator('#outcome').textContent()).toBe('Sent to bob@example.test,');
  });

  it('filled by its stored target, as a replay fills it, makes a token and is sent', async () => {
    const { harness, page } = served;
    const env = () => harness.actEnvironment(new Map(), {}, Date.now() + 10_000);
    const filled = await performAction(env(), { op: 'fill', target: TO, value: 'bob@example.test' }, 0);
    expect(filled.status, filled.message).toBe('executed');
    expect(filled.message).not.toContain('instead');
    const subject: Target = { frame: [], locator: { by: 'role', role: 'textbox', name: 'Subject' } };
    await performAction(env(), { op: 'fill', target: subject, value: 'Budget review' }, 1);
    await pressSend();
    expect(await page.locator('#outcome').textContent()).toBe('Sent to bob@example.test,');
  });
});
