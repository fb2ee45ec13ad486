import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performAction } from '../../../src/rungs/ui/act.js';
import { type PageOnServer, pageOnServer, servesHtml } from './page-on-server.js';

// A list as WordPress's are: each row's actions are parked off screen (left: -9999em) until
// the row is hovered or holds the focus. A person hovers the row; a keyboard user tabs to the
// action, which brings it back. An action that judged it unreachable could never restore a post.
const PAGE = `<!doctype html><title>Trash</title><style>
.row-actions { position: relative; left: -9999em; }
tr:hover .row-actions, tr:focus-within .row-actions { position: static; }
</style><main><p id="done"></p><table><thead><tr><th>Title</th></tr></thead><tbody>
<tr><td>Old pricing announcement<div class="row-actions">
<a href="#" aria-label="Restore “Old pricing announcement” from the Trash">Restore</a></div></td></tr>
<tr><td>Meeting notes 2<div class="row-actions">
<a href="#" aria-label="Restore “Meeting notes 2” from the Trash">Restore</a></div></td></tr>
</tbody></table></main><script>
for (const link of document.querySelectorAll('.row-actions a'))
  link.addEventListener('click', (event) => {
    event.preventDefault();
    document.getElementById('done').textContent = link.getAttribute('aria-label') + ': done';
  });
</script>`;

let served: PageOnServer;

beforeAll(async () => {
  served = await pageOnServer(servesHtml(PAGE), 'lift-row-action-');
});
afterAll(() => served?.close());

describe('a row action parked off screen until its row is hovered or focused', () => {
  it('is brought on screen by focusing it, and clicked', async () => {
    const { harness, page } = served;
    await harness.goto(`${served.origin}/`);
    const name = 'Restore “Meeting notes 2” from the Trash';
    const step = await performAction(
      harness.actEnvironment(new Map(), {}, Date.now() + 10_000),
      { op: 'click', target: { frame: [], locator: { by: 'role', role: 'link', name } } },
      0,
    );
    expect(step.status, step.message).toBe('executed');
    expect(await page.locator('#done').textContent()).toBe(`${name}: done`);
  });
});
