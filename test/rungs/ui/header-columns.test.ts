import { describe, expect } from 'vitest';
import { columnSpanInFrame } from '../../../src/rungs/ui/header-columns.js';
import { columnSpan } from '../../../src/rungs/ui/locator.js';
import { itWithPage as it } from '../../support/browser-page.js';

// phpMyAdmin's shape: one header, named by its image's alt text, spans the four action columns.
const CUSTOMERS = `<table>
  <thead><tr><th colspan="4"><img alt="Full texts" src="data:,"></th><th>id</th><th aria-label="Name">name ▲</th><th>email</th></tr></thead>
  <tbody><tr><td>c</td><td>e</td><td>c</td><td>d</td><td>1</td><td>Acme</td><td>orders@acme.test</td></tr></tbody>
</table>`;

describe('columnSpanInFrame', () => {
  it('answers what Playwright’s header match answers, by text, aria-label or image alt', async ({ page }) => {
    await page.setContent(CUSTOMERS);
    const table = page.locator('table');
    for (const column of ['Full texts', 'id', 'Name', 'email']) {
      expect(await columnSpanInFrame(page.mainFrame(), column)).toEqual(await columnSpan(table, column));
    }
    expect(await columnSpanInFrame(page.mainFrame(), 'email')).toEqual({ start: 6, span: 1 });
  });

  it('answers nothing when no header has the name, or two tables place it apart', async ({ page }) => {
    await page.setContent(
      `${CUSTOMERS}<h2>Orders</h2><table><tr><th>email</th><th>id</th></tr><tr><td>a@b.test</td><td>7</td></tr></table>`,
    );
    expect(await columnSpanInFrame(page.mainFrame(), 'Owner')).toBeUndefined();
    expect(await columnSpanInFrame(page.mainFrame(), 'email')).toBeUndefined();
    expect(await columnSpanInFrame(page.mainFrame(), 'name ▲')).toEqual({ start: 5, span: 1 });
  });

  it('takes the first row with a th as the header, else the first row, as columnSpan does', async ({
    page,
  }) => {
    await page.setContent(
      '<table><tr><td>Id</td><td>Owner</td></tr><tr><td>7</td><td>ann</td></tr></table><table><tr><td>x</td></tr><tr><th>Owner</th></tr></table>',
    );
    expect(await columnSpanInFrame(page.mainFrame(), 'Owner')).toBeUndefined();
    await page.setContent('<table><tr><td>Id</td><td>Owner</td></tr><tr><td>7</td><td>ann</td></tr></table>');
    expect(await columnSpanInFrame(page.mainFrame(), 'Owner')).toEqual({ start: 1, span: 1 });
  });
});
