import type { CDPSession } from 'playwright-core';

/** What Chromium's Fetch domain reports for a request it paused (the fields Lift's guards use). */
export interface PausedRequest {
  requestId: string;
  request: { url: string };
  resourceType: string;
  /**
   * The frame that made the request. On the browser's own session: for a page's own frame and a
   * worker of its own, the page target's id; for a frame in the page's process, that frame's id.
   */
  frameId: string;
  /** Set on each hop of a redirect: the request the browser is about to send next. */
  redirectedRequestId?: string;
  /** Set when paused at the response stage (documents only). */
  responseStatusCode?: number;
  responseHeaders?: Array<{ name: string; value: string }>;
}

/** Requests are checked before they are sent; a document's redirect also when its answer comes in. */
export const GUARD_PATTERNS: Array<{
  urlPattern: string;
  requestStage: 'Request' | 'Response';
  resourceType?: 'Document';
}> = [
  { urlPattern: '*', requestStage: 'Request' },
  { urlPattern: '*', resourceType: 'Document', requestStage: 'Response' },
];

/** Where a paused response redirects to, if it is a redirect. */
export function redirectTarget(event: PausedRequest): string | undefined {
  const status = event.responseStatusCode ?? 0;
  if (status < 300 || status >= 400) return undefined;
  const location = event.responseHeaders?.find((header) => header.name.toLowerCase() === 'location');
  if (!location) return undefined;
  try {
    return new URL(location.value, event.request.url).href;
  } catch {
    return location.value;
  }
}

/** What a guard asks of a paused request: where it goes and what it is. */
export interface RequestQuestion {
  url: string;
  navigation: boolean;
  redirect: boolean;
}

/** The question a paused request (or a paused document's redirect) puts; undefined: nothing to decide. */
export function questionOf(event: PausedRequest): RequestQuestion | undefined {
  if (event.responseStatusCode !== undefined) {
    const next = redirectTarget(event);
    return next === undefined ? undefined : { url: next, navigation: true, redirect: true };
  }
  return {
    url: event.request.url,
    navigation: event.resourceType === 'Document',
    redirect: event.redirectedRequestId !== undefined,
  };
}

/** Lets the paused request (or response) go on, or fails it as blocked by the client. */
export function answerPaused(session: CDPSession, event: PausedRequest, allowed: boolean): void {
  const { requestId } = event;
  const answer = !allowed
    ? session.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' })
    : event.responseStatusCode !== undefined
      ? session.send('Fetch.continueResponse', { requestId })
      : session.send('Fetch.continueRequest', { requestId });
  // The target may close while a request waits; there is nothing left to answer then.
  answer.catch(() => undefined);
}

interface FrameTree {
  frame: { id: string };
  childFrames?: FrameTree[];
}

/** The ids of a page's frames now, from its session's frame tree. */
export async function frameIdsOf(session: CDPSession): Promise<string[]> {
  const { frameTree } = (await session.send('Page.getFrameTree')) as { frameTree: FrameTree };
  const ids: string[] = [];
  const visit = (tree: FrameTree) => {
    ids.push(tree.frame.id);
    for (const child of tree.childFrames ?? []) visit(child);
  };
  visit(frameTree);
  return ids;
}
