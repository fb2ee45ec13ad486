import { describe, expect, it } from 'vitest';
import { Redactor } from '../../../src/rungs/ui/redact.js';
import { type RenderOptions, renderSnapshot } from '../../../src/rungs/ui/render.js';
import { parseAriaSnapshot } from '../../../src/rungs/ui/snapshot.js';

/** Renders a snapshot written as Playwright's ai mode writes it. */
function render(lines: string[], options: Partial<RenderOptions> = {}) {
  return renderSnapshot(parseAriaSnapshot(lines.join('\n')), {
    redactor: new Redactor({}),
    frames: new Map(),
    mainPasswordNames: new Set(),
    rowLimit: 5,
    ...options,
  });
}

describe('what the model reads of a page', () => {
  it('leaves out what nobody perceives: aria-hidden subtrees, controls of no size, boxes beside the page', () => {
    const rendered = render(
      [
        // The WordPress block editor behind its welcome dialog: everything aria-hidden.
        '- generic [aria-hidden] [ref=e2]:',
        '  - button [ref=e14] [cursor=pointer]',
        '  - button [disabled] [ref=e35]: Save draft',
        '- link "Skip to main content" [ref=e3] [box=0,0,1,1]',
        // phpMyAdmin's collapsed console, parked right of the 1280 px page.
        '- generic [ref=e140] [box=1281,913,300,20]:',
        '  - generic [ref=e141]: Debug SQL',
        '  - checkbox "Always expand query messages" [ref=e154] [box=1293,944,13,13]',
        '- dialog "Welcome to the block editor" [ref=e127]:',
        '  - document [ref=e128]:',
        '    - button "Close dialog" [active] [ref=e130]',
        '    - button "Next" [ref=e156]',
      ],
      { pageWidth: 1280 },
    );
    const text = rendered.lines.join('\n');
    expect(text).not.toMatch(/Save draft|e14|Skip to main|Debug SQL|Always expand/);
    // A dialog's content is all there: its buttons are how it ends.
    expect(text).toContain('— dialog "Welcome to the block editor":');
    expect(text).toContain('[e130] button "Close dialog"');
    expect(text).toContain('[e156] button "Next"');
  });

  it('shows no icon glyphs, no empty status lines, no controls without a ref, no wrapper around a link', () => {
    const text = render([
      '- button "\uE001 Compose" [ref=e8]',
      '- status [ref=e5]',
      '- text: "\uE002 \uE003"',
      '- menuitem [ref=e41]:',
      '  - link "\uE004 Select" [ref=e42]',
      '- button "Reply" [disabled]',
    ]).lines.join('\n');
    expect(text).toBe('[e8] button "Compose"\n[e42] link "Select"');
  });

  it('reads a header YAML had to quote (a name with ": " in it)', () => {
    const text = render([`- 'link "Server: db1" [ref=e90]':`, '  - /url: index.php']).lines.join('\n');
    expect(text).toBe('[e90] link "Server: db1"');
  });

  it('shows refs of the page without the frame prefix Playwright gives a replaced document', () => {
    const rendered = render(['- button "Go" [ref=f2e154]', '- link "Home" [ref=f2e3]'], {
      mainRefPrefix: 'f2',
    });
    expect(rendered.lines).toEqual(['[e154] button "Go"', '[e3] link "Home"']);
    expect(rendered.elements.get('e154')).toMatchObject({ ref: 'e154', ariaRef: 'f2e154' });
  });

  it('shows each select once in a table: its chosen option, not its hundred', () => {
    const text = render([
      '- table [ref=e170]:',
      '  - row [ref=e171]:',
      '    - columnheader "Column"',
      '    - columnheader "Function"',
      '    - columnheader "Value"',
      '  - row [ref=e180]:',
      '    - cell "name" [ref=e181]',
      '    - cell [ref=e184]:',
      '      - combobox [ref=e185]:',
      '        - option "" [selected]',
      '        - option "ABS"',
      '        - option "ACOS"',
      '    - cell [ref=e187]:',
      '      - textbox [ref=e188]',
    ]).lines.join('\n');
    expect(text).not.toContain('ABS');
    expect(text).toContain('| name | [e185] combobox | [e188] textbox |');
  });
});

describe('targets that name one element', () => {
  it('gives a field with no name the text before it, and a control in a table its cell by the key column', () => {
    const rendered = render([
      '- group "Change password" [ref=e132]:',
      '  - text: "Enter:"',
      '  - textbox [ref=e145]',
      '  - text: "Re-type:"',
      '  - textbox [ref=e147]',
      '- table "Orders" [ref=e200]:',
      '  - row:',
      '    - columnheader "Id"',
      '    - columnheader "Customer"',
      '    - columnheader "Action"',
      '  - row:',
      '    - cell "3"',
      '    - cell "7"',
      '    - cell "Edit" [ref=e201]:',
      '      - link "Edit" [ref=e202]',
      '  - row:',
      '    - cell "4"',
      '    - cell "3"',
      '    - cell "Edit" [ref=e203]:',
      '      - link "Edit" [ref=e204]',
    ]);
    expect(rendered.elements.get('e147')?.target.locator).toEqual({
      by: 'field',
      label: 'Re-type:',
      role: 'textbox',
    });
    expect(rendered.elements.get('e204')?.target.locator).toEqual({
      by: 'cell',
      row: '4',
      column: 'Action',
      key: 'Id',
      table: 'Orders',
      element: { role: 'link', name: 'Edit' },
    });
    expect(rendered.elements.get('e204')?.ambiguous).toBe(false);
  });

  it('names a repeated control by the named region it is alone in', () => {
    const rendered = render([
      '- region "Site Health Status" [ref=e270]:',
      '  - button "Move up" [ref=e275]',
      '- region "At a Glance" [ref=e290]:',
      '  - button "Move up" [ref=e295]',
      '- navigation [ref=e300]:',
      '  - link "Add New" [ref=e22]',
      '  - link "Add New" [ref=e35]',
    ]);
    expect(rendered.elements.get('e295')?.target).toEqual({
      frame: [],
      within: { role: 'region', name: 'At a Glance' },
      locator: { by: 'role', role: 'button', name: 'Move up' },
    });
    // No named container tells the two apart: act finds which match it is on the live page.
    expect(rendered.elements.get('e35')?.ambiguous).toBe(true);
  });
});
