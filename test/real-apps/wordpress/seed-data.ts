/**
 * What the WordPress bed holds after seeding, besides WordPress's own first post ("Hello
 * world!", id 1) and page ("Sample Page", id 2). The awkward values are on purpose: titles
 * with error words, a two-letter login, a login and a title that are words of the UI.
 */

export type WordPressRole = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';

export interface SeedUser {
  login: string;
  email: string;
  firstName: string;
  lastName: string;
  role: WordPressRole;
  password: string;
}

export interface SeedPost {
  title: string;
  /** Trashed posts wait in Posts > Trash, where only Delete Permanently removes them. */
  status: 'publish' | 'draft' | 'trash';
  author: string;
  categories: string[];
  paragraphs: string[];
}

export const WORDPRESS_ADMIN = {
  login: 'admin',
  email: 'admin@northwind.test',
  password: 'wp-admin-pass-1',
} as const;

export const WORDPRESS_SITE = {
  title: 'Northwind Notes',
  tagline: 'Team updates and support notes',
} as const;

export const WORDPRESS_USERS: SeedUser[] = [
  {
    login: 'jdoe',
    email: 'jane.doe@northwind.test',
    firstName: 'Jane',
    lastName: 'Doe',
    role: 'editor',
    password: 'wp-jdoe-pass-1',
  },
  {
    login: 'bob',
    email: 'bob.stone@northwind.test',
    firstName: 'Bob',
    lastName: 'Stone',
    role: 'author',
    password: 'wp-bob-pass-1',
  },
  {
    login: 'al',
    email: 'al@northwind.test',
    firstName: 'Al',
    lastName: 'Ng',
    role: 'contributor',
    password: 'wp-al-pass-1',
  },
  {
    login: 'user',
    email: 'user@northwind.test',
    firstName: 'Uma',
    lastName: 'Ser',
    role: 'subscriber',
    password: 'wp-user-pass-1',
  },
];

export const WORDPRESS_CATEGORIES = [
  { name: 'Support', slug: 'support', description: 'Problems customers reported and how we fixed them.' },
  { name: 'Releases', slug: 'releases', description: 'What shipped, version by version.' },
  { name: 'News', slug: 'news', description: 'Company news.' },
] as const;

function longReport(): string[] {
  const sections = ['Revenue', 'Customers', 'Support', 'Hiring', 'Infrastructure', 'Outlook'];
  return sections.flatMap((section, index) => [
    `${section}: quarter ${index + 1} figures are in. This paragraph is long on purpose, so that the post is longer than one screen and an observation has to be paged or found through.`,
    `${section} details: the team met every week, reviewed the numbers with finance, and wrote down what to change for the next quarter. Item ${index + 2} on the list is still open.`,
  ]);
}

export const WORDPRESS_POSTS: SeedPost[] = [
  {
    title: 'Contact form returns 500',
    status: 'publish',
    author: 'jdoe',
    categories: ['Support'],
    paragraphs: [
      'Since Monday the contact form answers with an HTTP 500 error when a message has an attachment.',
      'Workaround: send the file by mail until the fix ships.',
    ],
  },
  {
    title: 'Cannot log in after password reset',
    status: 'publish',
    author: 'bob',
    categories: ['Support'],
    paragraphs: ['Some users cannot log in after resetting their password. Clearing cookies helps.'],
  },
  {
    title: 'Release 2.0 notes',
    status: 'publish',
    author: 'admin',
    categories: ['Releases'],
    paragraphs: ['Version 2.0 adds export to CSV, a dark theme, and faster search.'],
  },
  {
    title: 'Published',
    status: 'publish',
    author: 'al',
    categories: ['News'],
    paragraphs: ['A post whose title is one of the words the Posts screen uses for a status filter.'],
  },
  {
    title: 'Draft: pricing page',
    status: 'draft',
    author: 'jdoe',
    categories: ['News'],
    paragraphs: ['Prices for the new plans, not to be published before the launch.'],
  },
  {
    title: 'Quarterly report',
    status: 'publish',
    author: 'admin',
    categories: ['News'],
    paragraphs: longReport(),
  },
  {
    title: 'Old pricing announcement',
    status: 'trash',
    author: 'jdoe',
    categories: ['News'],
    paragraphs: ['The prices before the new plans.'],
  },
  {
    title: 'Test post, please ignore',
    status: 'trash',
    author: 'admin',
    categories: ['News'],
    paragraphs: ['Testing the editor.'],
  },
  {
    title: 'Meeting notes 2',
    status: 'trash',
    author: 'bob',
    categories: ['News'],
    paragraphs: ['Second meeting: nothing decided.'],
  },
  {
    title: 'Spam: win a prize',
    status: 'trash',
    author: 'al',
    categories: ['News'],
    paragraphs: ['Moved to the trash by a moderator.'],
  },
];
