import { handoffPage, handoffsPage } from './handoffs-page.js';
import { BASE } from './layout.js';
import { redirect, sendHtml, sendText } from './respond.js';
import type { Route } from './routes.js';
import { KEYS } from './screencast.js';
import type { ConsoleContext } from './server.js';

const ID = '([A-Za-z0-9_]{1,40})';

/** Coordinates inside the page's viewport, or undefined for anything else. */
function coordinate(text: string | null, limit: number): number | undefined {
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value <= limit ? value : undefined;
}

async function forward(context: ConsoleContext): Promise<void> {
  const handoff = context.desk.get(context.params[0] ?? '');
  if (!handoff) return sendText(context.response, 410, 'This page is no longer handed over.');
  const { form } = context;
  const kind = form.get('kind');
  if (kind === 'click') {
    const size = handoff.page.viewportSize() ?? { width: 1280, height: 800 };
    const x = coordinate(form.get('x'), size.width);
    const y = coordinate(form.get('y'), size.height);
    if (x === undefined || y === undefined)
      return sendText(context.response, 400, 'x and y must be inside the page.');
    await handoff.screencast.click(x, y);
  } else if (kind === 'text') {
    const text = (form.get('text') ?? '').slice(0, 2_000);
    if (text) await handoff.screencast.type(text);
  } else if (kind === 'key') {
    const key = form.get('key') ?? '';
    if (!KEYS.has(key))
      return sendText(context.response, 400, `Only these keys are sent: ${[...KEYS].join(', ')}.`);
    await handoff.screencast.press(key === 'Space' ? ' ' : key);
  } else {
    return sendText(context.response, 400, 'kind is click, text or key.');
  }
  // The page's script sends input with fetch and wants no page back; a plain form post gets one.
  if (context.request.headers['x-lift-console'] === 'input') {
    context.response.writeHead(204).end();
    return;
  }
  redirect(context.response, `${BASE}/handoffs/${handoff.id}`);
}

export const HANDOFF_ROUTES: Route[] = [
  {
    method: 'GET',
    path: new RegExp(`^${BASE}/handoffs$`),
    run: (c) => sendHtml(c.response, 200, handoffsPage(c.desk, c.session)),
  },
  {
    method: 'GET',
    path: new RegExp(`^${BASE}/handoffs/${ID}$`),
    run: (c) => sendHtml(c.response, 200, handoffPage(c.desk, c.session, c.params[0] ?? '')),
  },
  {
    method: 'GET',
    path: new RegExp(`^${BASE}/handoffs/${ID}/frames$`),
    run: async (c) => {
      const handoff = c.desk.get(c.params[0] ?? '');
      if (!handoff) return sendText(c.response, 404, 'No such handoff.');
      await handoff.screencast.watch(c.response);
    },
  },
  { method: 'POST', path: new RegExp(`^${BASE}/handoffs/${ID}/input$`), run: forward },
  {
    method: 'POST',
    path: new RegExp(`^${BASE}/handoffs/${ID}/done$`),
    run: (c) => {
      c.session.flash = c.desk.finish(c.params[0] ?? '')
        ? 'Done: the page is back with the run, which goes on from where it is.'
        : 'That handoff was already over.';
      redirect(c.response, `${BASE}/handoffs`);
    },
  },
];
