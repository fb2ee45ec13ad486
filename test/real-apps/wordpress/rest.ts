/** WordPress's state, read through its REST API with an application password (never its pages). */

export interface WordPressPost {
  id: number;
  title: string;
  status: string;
  /** The stored content (block markup), as the editor saved it. */
  content: string;
  authorId: number;
  categoryIds: number[];
  link: string;
}

export interface WordPressUser {
  id: number;
  login: string;
  name: string;
  email: string;
  roles: string[];
}

export interface WordPressCategory {
  id: number;
  name: string;
  slug: string;
  count: number;
}

export interface WordPressState {
  /** Posts of any status (drafts and trash included), newest first. */
  posts(options?: { search?: string }): Promise<WordPressPost[]>;
  /** The post with exactly this title, or undefined. */
  postByTitle(title: string): Promise<WordPressPost | undefined>;
  users(): Promise<WordPressUser[]>;
  userByLogin(login: string): Promise<WordPressUser | undefined>;
  categories(): Promise<WordPressCategory[]>;
}

interface RawPost {
  id: number;
  title: { raw: string };
  status: string;
  content: { raw: string };
  author: number;
  categories: number[];
  link: string;
}

interface RawUser {
  id: number;
  username: string;
  name: string;
  email: string;
  roles: string[];
}

export function wordpressState(origin: string, user: string, applicationPassword: string): WordPressState {
  const authorization = `Basic ${Buffer.from(`${user}:${applicationPassword}`).toString('base64')}`;
  // Plain permalinks: the REST API answers at ?rest_route=, which needs no rewrite rules.
  const get = async <T>(route: string, query: Record<string, string> = {}): Promise<T> => {
    const url = new URL(`${origin}/`);
    url.searchParams.set('rest_route', route);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const response = await fetch(url, { headers: { authorization } });
    const body = await response.text();
    if (!response.ok)
      throw new Error(`WordPress REST ${route} answered ${response.status}: ${body.slice(0, 300)}`);
    return JSON.parse(body) as T;
  };
  const posts = async (options: { search?: string } = {}) => {
    const raw = await get<RawPost[]>('/wp/v2/posts', {
      context: 'edit',
      status: 'publish,future,draft,pending,private,trash',
      per_page: '100',
      ...(options.search ? { search: options.search } : {}),
    });
    return raw.map((post) => ({
      id: post.id,
      title: post.title.raw,
      status: post.status,
      content: post.content.raw,
      authorId: post.author,
      categoryIds: post.categories,
      link: post.link,
    }));
  };
  const users = async () => {
    const raw = await get<RawUser[]>('/wp/v2/users', { context: 'edit', per_page: '100' });
    return raw.map((user) => ({
      id: user.id,
      login: user.username,
      name: user.name,
      email: user.email,
      roles: user.roles,
    }));
  };
  return {
    posts,
    postByTitle: async (title) => (await posts({ search: title })).find((post) => post.title === title),
    users,
    userByLogin: async (login) => (await users()).find((user) => user.login === login),
    categories: async () =>
      (await get<WordPressCategory[]>('/wp/v2/categories', { per_page: '100' })).map(
        ({ id, name, slug, count }) => ({ id, name, slug, count }),
      ),
  };
}
