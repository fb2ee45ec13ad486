import type { BrowserContext } from 'playwright-core';
import { checkUrl, type UiPolicy } from './policy.js';

export interface BlockedRequest {
  url: string;
  reason: string;
  at: number;
  navigation: boolean;
}

/**
 * Checks every request of the context (pages, frames, redirects, subresources) before it
 * leaves the browser; one that the policy does not allow is aborted and reported.
 */
export async function guardRequests(
  context: BrowserContext,
  policy: UiPolicy,
  options: { timeoutMs: number; onBlocked: (blocked: BlockedRequest) => void },
): Promise<void> {
  const refuse = (url: string, reason: string, navigation: boolean): void =>
    options.onBlocked({ url, reason, at: Date.now(), navigation });
  await context.route('**/*', async (route, request) => {
    const navigation = request.isNavigationRequest();
    const verdict = checkUrl(policy, request.url(), navigation);
    if (!verdict.allowed) {
      refuse(request.url(), verdict.reason, navigation);
      return route.abort('blockedbyclient');
    }
    if (!navigation) return route.fallback();
    // Chromium follows redirects without asking the route again, so a document load is
    // fetched here with redirects off: a Location the policy refuses is never requested,
    // an allowed one is handed to the browser, whose next request comes back through here.
    let response: Awaited<ReturnType<typeof route.fetch>>;
    try {
      response = await route.fetch({ maxRedirects: 0, timeout: options.timeoutMs });
    } catch {
      return route.abort('failed').catch(() => undefined);
    }
    const location = response.headers().location;
    if (response.status() >= 300 && response.status() < 400 && location) {
      const next = new URL(location, request.url()).toString();
      const redirect = checkUrl(policy, next, true);
      if (!redirect.allowed) {
        refuse(next, `redirect from ${new URL(request.url()).pathname}: ${redirect.reason}`, true);
        return route.abort('blockedbyclient');
      }
    }
    return route.fulfill({ response });
  });
}
