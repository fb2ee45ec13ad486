import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTarget } from '../../../src/rungs/ui/locator.js';
import { type PageOnServer, pageOnServer, servesHtml } from './page-on-server.js';

// Two boxes with no name, each after a text a person reads as its label; the second label is
// drawn by CSS. The snapshot reads "Price" before the second box, while the page's own text
// before it is still "Quantity": a field suggested from the snapshot alone would name both
// boxes for the first and nothing for the second.
const PAGE = `<!doctype html><title>Order</title><style>
.price::before { content: "Price"; }
</style><main><p>Quantity</p><input id="quantity"><p class="price"></p><input id="price"></main>`;

let served: PageOnServer;

beforeAll(async () => {
  served = await pageOnServer(servesHtml(PAGE), 'lift-field-confirmed-');
  await served.harness.goto(`${served.origin}/`);
});
afterAll(() => served?.close());

describe("observe's suggested target for a field found by the text before it", () => {
  it('names, on the live page, exactly the element its ref names, or is not suggested', async () => {
    const { harness, page } = served;
    const { observation, index } = await harness.observe(1);
    const boxes = observation.elements.filter((element) => element.role === 'textbox');
    expect(boxes).toHaveLength(2);
    const suggested = boxes.map((box) => index.elements.get(box.ref)!).filter((record) => !record.ambiguous);
    for (const record of suggested) {
      const byRef = await page.locator(`aria-ref=${record.ariaRef}`).elementHandle({ timeout: 2_000 });
      const resolved = await resolveTarget(page, record.target);
      const names = await resolved.evaluateAll(
        (found, element) => found.length === 1 && found[0] === element,
        byRef,
      );
      expect(names, `${record.ref}: ${JSON.stringify(record.target)}\n${observation.text}`).toBe(true);
    }
    // The first box as the field right after "Quantity" (a field after a text is the one right
    // after it, so it needs no position); the second by its ref alone.
    expect(suggested.map((record) => record.ref)).toEqual([boxes[0]!.ref]);
    expect(boxes[0]!.target).toEqual({
      frame: [],
      locator: { by: 'field', label: 'Quantity', role: 'textbox' },
    });
    expect(observation.text).toMatch(/\nPrice\n\[[A-Za-z0-9]+\] textbox$/m);
  });
});
