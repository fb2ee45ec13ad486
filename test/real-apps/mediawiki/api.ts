/** MediaWiki's state, read through api.php (never its pages). */

export interface MediaWikiPage {
  title: string;
  pageId: number;
  /** Wikitext of the latest revision. */
  text: string;
  /** True when the page is a redirect (what a move leaves behind under the old title). */
  redirect: boolean;
  categories: string[];
  lastEditor: string;
}

export interface MediaWikiMove {
  from: string;
  to: string;
  user: string;
}

export interface MediaWikiState {
  /** The page as stored, or undefined when no page has this title. */
  page(title: string): Promise<MediaWikiPage | undefined>;
  pageExists(title: string): Promise<boolean>;
  /** Where a redirect (a moved page's old title) points, or undefined. */
  redirectTarget(title: string): Promise<string | undefined>;
  /** Moves logged from this title (newest first). */
  movesFrom(title: string): Promise<MediaWikiMove[]>;
  /** Titles in a category, by the category's name without the "Category:" prefix. */
  categoryMembers(category: string): Promise<string[]>;
}

interface QueryPage {
  title: string;
  pageid?: number;
  missing?: true;
  redirect?: true;
  categories?: Array<{ title: string }>;
  revisions?: Array<{ user: string; slots: { main: { content: string } } }>;
}

export function mediawikiState(origin: string): MediaWikiState {
  const api = async <T>(params: Record<string, string>): Promise<T> => {
    const url = new URL(`${origin}/api.php`);
    for (const [key, value] of Object.entries({ ...params, format: 'json', formatversion: '2' })) {
      url.searchParams.set(key, value);
    }
    const response = await fetch(url);
    const body = await response.text();
    if (!response.ok) throw new Error(`api.php answered ${response.status}: ${body.slice(0, 300)}`);
    const parsed = JSON.parse(body) as T & { error?: { info: string } };
    if (parsed.error) throw new Error(`api.php: ${parsed.error.info}`);
    return parsed;
  };
  const page = async (title: string): Promise<MediaWikiPage | undefined> => {
    const result = await api<{ query: { pages: QueryPage[] } }>({
      action: 'query',
      titles: title,
      prop: 'revisions|categories|info',
      rvprop: 'content|user',
      rvslots: 'main',
      cllimit: 'max',
    });
    const found = result.query.pages[0];
    if (!found || found.missing || found.pageid === undefined) return undefined;
    const revision = found.revisions?.[0];
    return {
      title: found.title,
      pageId: found.pageid,
      text: revision?.slots.main.content ?? '',
      redirect: found.redirect === true,
      categories: (found.categories ?? []).map((category) => category.title.replace(/^Category:/, '')),
      lastEditor: revision?.user ?? '',
    };
  };
  return {
    page,
    pageExists: async (title) => (await page(title)) !== undefined,
    redirectTarget: async (title) => {
      const result = await api<{ query: { redirects?: Array<{ from: string; to: string }> } }>({
        action: 'query',
        titles: title,
        redirects: '1',
      });
      return result.query.redirects?.[0]?.to;
    },
    movesFrom: async (title) => {
      const result = await api<{
        query: { logevents: Array<{ title: string; user: string; params: { target_title: string } }> };
      }>({ action: 'query', list: 'logevents', letype: 'move', letitle: title, lelimit: '50' });
      return result.query.logevents.map((event) => ({
        from: event.title,
        to: event.params.target_title,
        user: event.user,
      }));
    },
    categoryMembers: async (category) => {
      const result = await api<{ query: { categorymembers: Array<{ title: string }> } }>({
        action: 'query',
        list: 'categorymembers',
        cmtitle: `Category:${category}`,
        cmlimit: 'max',
      });
      return result.query.categorymembers.map((member) => member.title);
    },
  };
}
