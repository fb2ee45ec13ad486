import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIFT_VERSION } from '../../../src/contract/version.js';
import { compileCapability, type ExecutedAction } from '../../../src/discover/compile.js';
import { replayCapability } from '../../../src/replay/engine.js';
import { performAction, type StepResult } from '../../../src/rungs/ui/act.js';
import type { UiAction } from '../../../src/rungs/ui/actions.js';
import type { Target } from '../../../src/rungs/ui/locator.js';
import { tempDir } from '../../support/temp.js';
import { type PageOnServer, pageOnServer } from './page-on-server.js';

const AIRPORTS: Record<string, string> = {
  Lisbon: 'LIS',
  Lima: 'LIM',
  Lyon: 'LYS',
  London: 'LHR',
  Madrid: 'MAD',
  Marseille: 'MRS',
};

// Written the way real autocompletes are (jQuery UI, Select2, awesomplete): the box asks the
// server for suggestions on a key press once it holds two characters, shows them in a listbox,
// and only a chosen option fills the hidden code the form sends. fill's one input event never
// opens the list; Enter in the box submits the whole form with no code.
const FORM = `<!doctype html><meta charset="utf-8"><title>Book a trip</title>
<main><h1>Book a trip</h1><form action="/booked" method="get">
<label for="city">City</label>
<input id="city" name="city" role="combobox" aria-autocomplete="list" aria-controls="cities"
  aria-expanded="false" autocomplete="off">
<ul id="cities" role="listbox" aria-label="Suggestions" hidden></ul>
<input type="hidden" name="code" id="code">
<button type="submit">Book</button>
</form></main><script>
const box = document.getElementById('city');
const list = document.getElementById('cities');
box.addEventListener('keydown', () => setTimeout(async () => {
  document.getElementById('code').value = '';
  const typed = box.value.trim();
  if (typed.length < 2) { list.hidden = true; return; }
  const found = await (await fetch('/suggest?q=' + encodeURIComponent(typed))).json();
  if (box.value.trim() !== typed) return;
  list.replaceChildren(...found.map(([name, code]) => {
    const option = document.createElement('li');
    option.setAttribute('role', 'option');
    option.textContent = name;
    option.addEventListener('click', () => {
      box.value = name;
      document.getElementById('code').value = code;
      list.hidden = true;
      box.setAttribute('aria-expanded', 'false');
    });
    return option;
  }));
  list.hidden = found.length === 0;
  box.setAttribute('aria-expanded', String(found.length > 0));
}));
</script>`;

function serve(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname === '/suggest') {
    const typed = (url.searchParams.get('q') ?? '').toLowerCase();
    const found = Object.entries(AIRPORTS).filter(([name]) => name.toLowerCase().startsWith(typed));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(found));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  if (url.pathname === '/booked') {
    const city = (url.searchParams.get('city') ?? '').replace(/[<&]/g, '');
    const code = (url.searchParams.get('code') ?? '').replace(/[<&]/g, '');
    response.end(
      `<!doctype html><meta charset="utf-8"><title>Booked</title><main><h1>Booked a trip to ${city}</h1>` +
        `<p>Airport: ${code || 'none chosen'}</p></main>`,
    );
    return;
  }
  response.end(FORM);
}

let served: PageOnServer;
const evidence = tempDir('lift-autocomplete-replay-');

beforeAll(async () => {
  served = await pageOnServer(serve, 'lift-autocomplete-', { city: 'Lyon' });
});
afterAll(async () => {
  await served?.close();
  evidence.remove();
});

const CITY: Target = { frame: [], locator: { by: 'field', label: 'City', role: 'combobox' } };

async function act(action: UiAction, refs = new Map()): Promise<StepResult> {
  const env = served.harness.actEnvironment(refs, {}, Date.now() + 10_000);
  return performAction(env, action, 0);
}

describe('an autocomplete that suggests only on key presses', () => {
  it('shows no suggestion after a fill: its one input event is no key press', async () => {
    await served.harness.goto(`${served.origin}/`);
    const filled = await act({ op: 'fill', target: CITY, value: { input: 'city' } });
    expect(filled.status, filled.message).toBe('executed');
    await served.page.waitForTimeout(300);
    expect(await served.page.locator('#cities').isHidden()).toBe(true);
  });

  it('refuses to type a line break, which would be Enter and send the form with no airport', async () => {
    await served.harness.goto(`${served.origin}/`);
    const typed = await act({ op: 'type', target: CITY, value: 'Lyon\n' });
    expect(typed).toMatchObject({ status: 'rejected', code: 'BAD_INPUT' });
    expect(served.page.url()).toBe(`${served.origin}/`);
    expect(await served.page.locator('#city').inputValue()).toBe('');
  });

  it('is typed into key by key, chosen from its suggestions, and replayed so on other inputs', {
    timeout: 90_000,
  }, async () => {
    const { harness, page, origin } = served;
    await harness.goto(`${origin}/`);
    const executed: ExecutedAction[] = [];
    const keep = (result: StepResult, record: (target: Target) => ExecutedAction) => {
      expect(result.status, result.message).toBe('executed');
      expect(result.resolved?.notUnique).toBeUndefined();
      executed.push(record(result.resolved!.target!));
    };

    const first = await harness.observe(1);
    const box = first.observation.elements.find((element) => element.role === 'combobox');
    const typed = await act(
      { op: 'type', target: { ref: box!.ref }, value: { input: 'city' } },
      first.index.elements,
    );
    expect(typed.effect).toBe('changed');
    expect(typed.message).toContain('⟦input:city⟧');
    keep(typed, (target) => ({ op: 'type', target, value: { input: 'city' } }));

    await page.getByRole('option').first().waitFor({ timeout: 5_000 });
    const second = await harness.observe(2);
    expect(second.observation.text).toMatch(/listbox "Suggestions"\n {2}\[e\d+\] option "⟦input:city⟧"/);
    const option = second.observation.elements.find(
      (element) => element.role === 'option' && element.name === '⟦input:city⟧',
    );
    expect(option, second.observation.text).toBeDefined();
    const chosen = await act({ op: 'click', target: { ref: option!.ref } }, second.index.elements);
    keep(chosen, (target) => ({ op: 'click', target }));
    expect(await page.locator('#code').inputValue()).toBe('LYS');

    const third = await harness.observe(3);
    const book = third.observation.elements.find(
      (element) => element.role === 'button' && element.name === 'Book',
    );
    const booked = await act({ op: 'click', target: { ref: book!.ref } }, third.index.elements);
    keep(booked, (target) => ({ op: 'click', target }));
    await page.waitForURL(/\/booked/);
    expect(await page.locator('h1').textContent()).toBe('Booked a trip to Lyon');
    expect(await page.locator('p').textContent()).toBe('Airport: LYS');

    const capability = compileCapability({
      name: 'trip_book',
      intent: 'Book a trip to a city chosen from the suggestions',
      inputs: [{ name: 'city', type: 'string' }],
      outputs: [{ name: 'code', type: 'string', from: { url: { param: 'code' } } }],
      bound: { city: 'Lyon' },
      start: { origin, path: '/', fingerprint: '0'.repeat(64) },
      actions: executed,
      checkpoint: {
        target: { frame: [], locator: { by: 'role', role: 'heading', name: 'Booked a trip to Lyon' } },
        input: 'city',
        match: 'contains',
      },
      outcomes: ['found'],
      provenance: {
        explorer: 'scripted',
        runId: 'run_test',
        createdAt: '2026-12-03T08:00:00.000Z',
        liftVersion: LIFT_VERSION,
      },
    });
    expect(capability.steps.map((step) => step.op)).toEqual(['type', 'click', 'click']);
    expect(capability.steps[0]).toMatchObject({ op: 'type', value: { input: 'city' } });
    expect(capability.steps[1]).toMatchObject({
      target: { locator: { by: 'role', role: 'option', name: '{{input.city}}' } },
    });

    const replayPage = await page.context().browser()!.newPage();
    try {
      const result = await replayCapability(
        capability,
        { city: 'Madrid' },
        { page: replayPage, layoutTolerant: true, evidenceDir: evidence.path, stepTimeoutMs: 5_000 },
      );
      expect(result).toMatchObject({
        outcome: 'found',
        checkpoint: { passed: true },
        outputs: { code: 'MAD' },
      });
      expect(await replayPage.locator('h1').textContent()).toBe('Booked a trip to Madrid');
      expect(await replayPage.locator('p').textContent()).toBe('Airport: MAD');
    } finally {
      await replayPage.close();
    }
  });
});
