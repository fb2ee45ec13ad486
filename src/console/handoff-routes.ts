import { z } from 'zod';
import { HandoffInputSchema } from '../rungs/ui/handoff/input.js';
import type { HandoffRecord } from '../store/handoffs.js';
import { handoffPage, handoffsPage } from './handoffs-page.js';
import { BASE } from './layout.js';
import { Missing } from './missing.js';
import { redirect, sendHtml, sendText } from './respond.js';
import type { Route } from './routes.js';
import type { ConsoleContext } from './server.js';

const ID = '([A-Za-z0-9_]{1,40})';
const ALL_HANDOFFS = { href: `${BASE}/handoffs`, label: 'All handoffs' };

/** The handoff the path names, or Missing: it may be done already, or its process gone. */
function waitingHandoff(context: ConsoleContext): HandoffRecord {
  const id = context.params[0] ?? '';
  const record = context.handoffs.get(id);
  if (!record)
    throw new Missing(
      `No page is waiting for a person as ${id}; it may be done already, or the run that held it has stopped.`,
      'handoffs',
      ALL_HANDOFFS,
    );
  return record;
}

/** The form's fields as the input the page gets (numbers for a click). */
function inputFrom(form: URLSearchParams): ReturnType<typeof HandoffInputSchema.safeParse> {
  const kind = form.get('kind');
  const fields: Record<string, unknown> =
    kind === 'click'
      ? { kind, x: Number(form.get('x') ?? Number.NaN), y: Number(form.get('y') ?? Number.NaN) }
      : kind === 'text'
        ? { kind, text: form.get('text') ?? '' }
        : { kind, key: form.get('key') ?? '' };
  return HandoffInputSchema.safeParse(fields);
}

async function forward(context: ConsoleContext): Promise<void> {
  const record = waitingHandoff(context);
  const parsed = inputFrom(context.form);
  // An empty text box sends nothing: there is nothing to type.
  const empty = context.form.get('kind') === 'text' && !context.form.get('text');
  if (!parsed.success && !empty)
    return sendText(context.response, 400, `Not sent: ${z.prettifyError(parsed.error)}`);
  if (parsed.success) {
    const sent = await context.handoffs.send(record, parsed.data);
    if (sent.status !== 204)
      return sendText(
        context.response,
        sent.status,
        `Not sent: ${sent.message ?? 'the page did not take it.'}`,
      );
  }
  // The page's script sends input with fetch and wants no page back; a plain form post gets one.
  if (context.request.headers['x-lift-console'] === 'input') {
    context.response.writeHead(204).end();
    return;
  }
  redirect(context.response, `${BASE}/handoffs/${record.id}`);
}

export const HANDOFF_ROUTES: Route[] = [
  {
    method: 'GET',
    path: new RegExp(`^${BASE}/handoffs$`),
    run: (c) => sendHtml(c.response, 200, handoffsPage(c.handoffs.waiting(), c.session)),
  },
  {
    method: 'GET',
    path: new RegExp(`^${BASE}/handoffs/events$`),
    run: (c) => c.handoffWatch.subscribe(c.response),
  },
  {
    method: 'GET',
    path: new RegExp(`^${BASE}/handoffs/${ID}$`),
    run: (c) => sendHtml(c.response, 200, handoffPage(waitingHandoff(c), c.session)),
  },
  {
    method: 'GET',
    path: new RegExp(`^${BASE}/handoffs/${ID}/frames$`),
    run: async (c) => {
      const record = waitingHandoff(c);
      if (!(await c.handoffs.watch(record, c.response)))
        throw new Missing(`The page of ${record.id} cannot be shown now.`, 'handoffs', ALL_HANDOFFS);
    },
  },
  { method: 'POST', path: new RegExp(`^${BASE}/handoffs/${ID}/input$`), run: forward },
  {
    method: 'POST',
    path: new RegExp(`^${BASE}/handoffs/${ID}/done$`),
    run: async (c) => {
      const record = c.handoffs.get(c.params[0] ?? '');
      c.session.flash =
        record && (await c.handoffs.done(record))
          ? 'Done: the page is back with the run, which goes on from where it is.'
          : 'That handoff was already over.';
      redirect(c.response, `${BASE}/handoffs`);
    },
  },
];
