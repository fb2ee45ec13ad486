/**
 * The structured-UI rung (rung 5): Lift drives a page through its accessibility tree —
 * never pixels, generated JavaScript, CSS or XPath from a model.
 *
 * ```ts
 * const pool = await BrowserPool.start({ profilesDir, warm: 2 });        // headed: true for a person
 * const session = await UiSession.open({
 *   pool, profile: 'backoffice', outputDir,
 *   policy: loadPolicy('policy.yaml'),                                     // or parsePolicy({...})
 *   startUrl: 'http://127.0.0.1:8080/app',
 *   inputs: { memberId: 'M-1002' },                                       // shown as ⟦input:memberId⟧
 *   hiddenColumns: ['Balance'],                                           // shown as ⟦hidden:balance⟧
 *   signIn: { user: 'operator', passwordSecret: 'backoffice_password' },
 *   secret: (name) => ctx.secret(name),                                   // the secret store
 *   emit: (event) => ctx.emit(event),
 * });
 * if ((await session.state()) === 'auth_required') await session.signIn();
 * const observation = await session.observe();                 // bounded, redacted text + refs
 * const result = await session.act([                             // 1..6 typed actions
 *   { op: 'fill', target: { ref: 'f2e7' }, value: { input: 'memberId' } },
 *   { op: 'click', target: { frame: ['Workspace'], locator: { by: 'role', role: 'button', name: 'Look up' } } },
 *   { op: 'read', target: { frame: ['Workspace'], locator: { by: 'cell', row: 'Savings', column: 'Balance' } }, as: 'balance' },
 * ]);
 * await session.screenshot();                                    // masked PNG in outputDir
 * await session.close(); await pool.close();
 * ```
 *
 * observe(): `Observation` — `text` is the model's view: a header (page, state, richness line),
 *   then headings, text, one `[ref] role "name"` line per actionable element (with `⇒ locator`
 *   when role + name is not unique), and tables summarised (header, row count, first rows,
 *   `find` for rows containing a value). Capped at `maxTokens` (default 2,000, o200k); when
 *   anything is left out, `truncated: true` and `fullSnapshotPath` holds the full (still
 *   redacted) rendering. `state` is ready | dialog | file_chooser | auth_required | error.
 *   `elements[].target` is each element's semantic target (placeholders for bound values).
 * act(actions): `ActResult` — per action a `StepResult`: status executed | rejected | skipped,
 *   effect changed | no_change | unexpected | none, `code` (POLICY_BLOCKED, SAFETY_BLOCKED,
 *   NO_CHANGE, UNEXPECTED_STATE, AUTH_REQUIRED, BAD_INPUT, PROMPT_UNEXPECTED, TIMEOUT, ...),
 *   `blockedBy` (disabled | covered | off_screen | hidden | dialog | policy | safety | not_found
 *   | ambiguous), `hint`, `example`, `risk`, `uncertain` (performed, effect unconfirmed: never
 *   repeated). `resolved.target` (raw semantic target) and `reads` (raw values of `read`) are
 *   for the caller's code — the compiler and replay — and must never be sent to a model.
 *   The first action that does not complete stops the call; the rest are `skipped`.
 *   Budgets (steps, seconds, rejected) come from the policy; exhaustion throws BUDGET_EXHAUSTED.
 * Policy: the request guard (request-guard.ts) checks every request of the page before it
 *   leaves the browser — every hop of every redirect, frames, subresources, form posts and
 *   workers (navigations against origins + paths, the rest against origins); windows the page
 *   opens load nothing and are closed; service workers are off. A stopped request is a
 *   `ui-request-blocked` event (origin and path, never the query). Blocked names (Transfer)
 *   and the click allow-list are checked on every click and Enter/Space.
 * One page harness (harness.ts) holds all of this for every user of a page — these sessions,
 *   discovery, replay and a person's handoff: one set of timings (UI_DEFAULTS), one request
 *   guard, one tracker (dialogs, file chooser, document statuses, blocked requests), one
 *   redactor and one sign-in (a SignInRecipe; passwordFormSignIn for a user and a stored secret).
 * Safety: `classifyAction` rates each action low | medium | high | block in code; unattended
 *   sessions refuse high; password fields are filled only by `signIn()` from the secret store.
 * Replay and the compiler resolve targets with `resolveTarget(session.page, target)`.
 */
export {
  type ActEnvironment,
  type BlockedBy,
  type Effect,
  performAction,
  type StepResult,
  type StepStatus,
} from './act.js';
export {
  type ActionTarget,
  ActionTargetSchema,
  InputRefSchema,
  isRef,
  MAX_ACTIONS_PER_CALL,
  RefSchema,
  type TextValue,
  TextValueSchema,
  UI_OPS,
  type UiAction,
  type UiActionInput,
  UiActionSchema,
  UiActionsSchema,
  type UiOp,
  type Verify,
  VerifySchema,
} from './actions.js';
export {
  BrowserPool,
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  type Lease,
  launchBrowser,
  type PoolOptions,
} from './browser.js';
export { UI_DEFAULTS, type UiTimings } from './defaults.js';
export { PageHarness, type PageHarnessOptions } from './harness.js';
export {
  describeLocator,
  type FramePath,
  FramePathSchema,
  resolveTarget,
  type SemanticLocator,
  SemanticLocatorSchema,
  type Target,
  TargetSchema,
} from './locator.js';
export type {
  FrameStatus,
  Observation,
  ObservedElement,
  PageState,
  Richness,
} from './observe.js';
export { type LeasedPage, PAGE_POOL_SERVICE, PagePool, startPagePool } from './page-pool.js';
export { type BlockedRequest, PageTracker } from './page-tracker.js';
export {
  blockedName,
  checkUrl,
  clickAllowed,
  loadPolicy,
  parsePolicy,
  type UiPolicy,
  type UiPolicyInput,
  UiPolicySchema,
} from './policy.js';
export { findPlaceholder, PLACEHOLDER, type RedactionRules, Redactor } from './redact.js';
export type { TableSummary } from './render.js';
export { RequestGuard } from './request-guard.js';
export { type Classification, classifyAction, type ElementFacts, type Risk } from './safety.js';
export {
  type ActResult,
  type ObserveOptions,
  type SignInSpec,
  UiSession,
  type UiSessionOptions,
} from './session.js';
export {
  passwordFormSignIn,
  type SignInField,
  type SignInRecipe,
  type SignInValue,
  showsSignIn,
} from './sign-in.js';
export { type AriaNode, parseAriaSnapshot } from './snapshot.js';
export { type TokenCounter, tokenCounter } from './tokens.js';
