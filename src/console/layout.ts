import type { ConsoleSession } from './auth.js';
import { type Html, html } from './html.js';
import type { Missing } from './missing.js';

export const BASE = '/console';

const SECTIONS = [
  { path: 'approvals', title: 'Approvals' },
  { path: 'handoffs', title: 'Handoffs' },
  { path: 'runs', title: 'Runs' },
  { path: 'capabilities', title: 'Capabilities' },
  { path: 'tools', title: 'Tools' },
  { path: 'ladder', title: 'Ladder' },
] as const;

export type Section = (typeof SECTIONS)[number]['path'];

/** The hidden field every state-changing form carries. */
export function csrfField(session: ConsoleSession): Html {
  return html`<input type="hidden" name="csrf" value="${session.csrf}">`;
}

function shell(title: string, header: Html, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Lift console</title>
<link rel="stylesheet" href="${BASE}/assets/console.css">
<script src="${BASE}/assets/console.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${header}
<main id="main" tabindex="-1">
${body}
</main>
</body>
</html>`;
}

/** A page of the signed-in console: the navigation, the last action's answer, the content. */
export function page(options: {
  title: string;
  /** The navigation entry marked current; none for a page outside every section. */
  section: Section | undefined;
  session: ConsoleSession;
  body: Html;
}): Html {
  const { session } = options;
  const flash = session.flash;
  session.flash = undefined;
  const header = html`<header class="top">
<p class="brand"><a href="${BASE}/approvals">Lift console</a></p>
<nav aria-label="Console">
<ul>${SECTIONS.map(
    (section) =>
      html`<li><a href="${BASE}/${section.path}"${section.path === options.section ? html` aria-current="page"` : ''}>${section.title}</a></li>`,
  )}</ul>
</nav>
<form method="post" action="${BASE}/logout" class="logout">${csrfField(session)}<button type="submit" class="quiet">Sign out</button></form>
</header>`;
  const body = html`<div id="flash" role="status" aria-live="polite" aria-label="Last answer">${flash ? html`<p class="flash">${flash}</p>` : ''}</div>
${options.body}`;
  return shell(options.title, header, body);
}

export function loginPage(message: string | undefined): Html {
  const header = html`<header class="top"><p class="brand">Lift console</p></header>`;
  return shell(
    'Sign in',
    header,
    html`<section class="login" aria-labelledby="login-title">
<h1 id="login-title">Sign in</h1>
<p>Paste the serve token (the <code>serve_token</code> secret; <code>lift secrets generate serve_token --out FILE</code> stores a new one). It is exchanged once for a session of this browser.</p>
${message ? html`<p class="error" role="alert">${message}</p>` : ''}
<form method="post" action="${BASE}/login">
<label for="token">Serve token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
</section>`,
  );
}

/** The 404 page: what is missing, and a link back to where the person can find what is there. */
export function notFoundPage(session: ConsoleSession, missing: Missing): Html {
  return page({
    title: 'Not found',
    section: missing.section,
    session,
    body: html`<h1>Not found</h1>
<p class="error" role="alert">${missing.message}</p>
<p><a href="${missing.back.href}">← ${missing.back.label}</a></p>`,
  });
}
