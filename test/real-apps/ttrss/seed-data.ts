/**
 * What the bed's Tiny Tiny RSS holds after seeding, written into its own tables (tt-rss has
 * no API that creates articles; they come from feeds, and the bed fetches none). Awkward on
 * purpose: a category and a feed named like tt-rss's own special feeds ("Starred", "Fresh
 * articles"), article titles with error words, a one-character title ("2"), a label
 * "Unread", authors shared between feeds.
 */

export const TTRSS_ADMIN = {
  login: 'admin',
  password: 'tt-admin-pass-1',
  fullName: 'Administrator',
} as const;
export const TTRSS_USERS = [{ login: 'jdoe', password: 'tt-jdoe-pass-1', fullName: 'Jane Doe' }] as const;

export const TTRSS_CATEGORIES = ['Work', 'News', 'Starred'] as const;

export interface TtrssSeedFeed {
  title: string;
  category: (typeof TTRSS_CATEGORIES)[number] | null;
  url: string;
  site: string;
}

export const TTRSS_FEEDS: TtrssSeedFeed[] = [
  {
    title: 'Northwind Status',
    category: 'Work',
    url: 'https://status.northwind.test/feed.xml',
    site: 'https://status.northwind.test/',
  },
  {
    title: 'Release notes',
    category: 'Work',
    url: 'https://northwind.test/releases.atom',
    site: 'https://northwind.test/releases',
  },
  {
    title: 'Planet Debian',
    category: 'News',
    url: 'https://planet.debian.test/rss20.xml',
    site: 'https://planet.debian.test/',
  },
  {
    title: 'Fresh articles',
    category: 'Starred',
    url: 'https://fresh.example.test/feed',
    site: 'https://fresh.example.test/',
  },
  { title: 'Kitchen blog', category: null, url: 'https://kitchen.test/rss', site: 'https://kitchen.test/' },
];

export interface TtrssSeedArticle {
  feed: string;
  title: string;
  author: string;
  /** ISO date, UTC. */
  updated: string;
  content: string;
  unread: boolean;
  starred: boolean;
  labels: string[];
}

export const TTRSS_LABELS = [
  { caption: 'Urgent', fg: '#ffffff', bg: '#d00000' },
  { caption: 'Unread', fg: '#000000', bg: '#ffff00' },
  { caption: 'Later', fg: '#ffffff', bg: '#0000d0' },
] as const;

const article = (
  feed: string,
  title: string,
  author: string,
  updated: string,
  extra: Partial<TtrssSeedArticle> = {},
): TtrssSeedArticle => ({
  feed,
  title,
  author,
  updated,
  content: `<p>${title}. Written by ${author}.</p>`,
  unread: true,
  starred: false,
  labels: [],
  ...extra,
});

export const TTRSS_ARTICLES: TtrssSeedArticle[] = [
  article('Northwind Status', 'Contact form returns 500', 'Jane Doe', '2026-11-02T09:15:00Z', {
    labels: ['Urgent'],
    starred: true,
  }),
  article('Northwind Status', 'Cannot log in after password reset', 'Al Li', '2026-11-03T14:00:00Z'),
  article('Northwind Status', 'All systems operational', 'Status bot', '2026-11-05T08:00:00Z', {
    unread: false,
  }),
  article('Release notes', 'Release 2.0 notes', 'Bob Stone', '2026-10-28T12:00:00Z', { labels: ['Later'] }),
  article('Release notes', '2', 'Bob Stone', '2026-10-30T12:00:00Z'),
  article('Planet Debian', 'Reproducible builds in November', 'Chris Lamb', '2026-11-04T18:30:00Z', {
    unread: false,
  }),
  article('Planet Debian', 'Error 404 on the wiki, fixed', 'Holger Levsen', '2026-11-06T07:45:00Z', {
    labels: ['Unread'],
  }),
  article('Fresh articles', 'Inbox zero in five steps', 'Jane Doe', '2026-11-01T10:00:00Z', {
    starred: true,
  }),
  article('Kitchen blog', 'Lunch on Friday?', 'Li Wei', '2026-11-07T11:30:00Z'),
  article('Kitchen blog', 'Published', 'Li Wei', '2026-11-08T16:20:00Z', { unread: false }),
];
