/**
 * The pages of the MediaWiki bed. Awkward on purpose: titles with error words, a page named
 * like the sidebar's "Tools" heading, short ids in a table, a page longer than any screen.
 */

export const MEDIAWIKI_ADMIN = { user: 'Admin', password: 'mw-admin-pass-1' } as const;
export const MEDIAWIKI_USERS = [{ user: 'Jdoe', password: 'mw-jdoe-pass-1' }] as const;
export const MEDIAWIKI_SITE = 'Northwind Wiki';

export interface SeedPage {
  title: string;
  text: string;
}

/** Rows of the "Server inventory" table: Id, Host, Owner, Status. */
export const INVENTORY_ROWS: Array<[number, string, string, string]> = [
  [2, 'web-2', 'Jdoe', 'Active'],
  [3, 'db-1', 'Ops', 'Active'],
  [12, 'mail-1', 'Al', 'Retired'],
  [23, 'backup-3', 'Ops', 'Maintenance'],
  [32, 'status', 'Jdoe', 'Active'],
];

function inventory(): string {
  const rows = INVENTORY_ROWS.map(
    ([id, host, owner, status]) => `|-\n| ${id} || ${host} || ${owner} || ${status}`,
  );
  return [
    'The servers we run, by id. Ask the owner before you change one.',
    '',
    '{| class="wikitable sortable"',
    '|+ Servers',
    '! Id !! Host !! Owner !! Status',
    ...rows,
    '|}',
    '',
    '[[Category:Infrastructure]]',
  ].join('\n');
}

function handbook(): string {
  const topics = [
    'First day',
    'Accounts',
    'Laptop setup',
    'Mail',
    'Chat',
    'Code review',
    'Deployments',
    'On call',
    'Expenses',
    'Holidays',
    'Security',
    'Leaving',
  ];
  const sections = topics.map(
    (topic, index) =>
      `== ${topic} ==\n` +
      `Step ${index + 1} of the handbook. This section is long on purpose: it explains ${topic.toLowerCase()} ` +
      'in enough words that the whole page is longer than any screen, so that reading it needs paging or a search.\n\n' +
      `* Ask your manager about ${topic.toLowerCase()}.\n* Write down what was unclear and fix this page.\n`,
  );
  return `Everything a new colleague needs in the first weeks.\n\n${sections.join('\n')}\n[[Category:Handbooks]]`;
}

export const MEDIAWIKI_PAGES: SeedPage[] = [
  {
    title: 'Main Page',
    text: "'''Welcome to the Northwind wiki.''' Start with the [[Onboarding handbook]], the [[Server inventory]] or the [[Tools]] we use.\n\nRecent incidents: [[Contact form returns 500]], [[Cannot log in]].",
  },
  { title: 'Server inventory', text: inventory() },
  { title: 'Inventory', text: '#REDIRECT [[Server inventory]]' },
  {
    title: 'Contact form returns 500',
    text: 'The contact form answered HTTP 500 for messages with attachments.\n\n== Cause ==\nA full temporary disk on web-2.\n\n== Fix ==\nCleaned the disk and added an alert.\n\n[[Category:Incidents]]',
  },
  {
    title: 'Cannot log in',
    text: 'Users who cannot log in after a password reset should clear their cookies.\n\nStatus: Resolved\n\n[[Category:Incidents]]',
  },
  { title: 'Onboarding handbook', text: handbook() },
  {
    title: 'Tools',
    text: 'Internal tools:\n* Grafana — dashboards\n* Jenkins — builds\n* Roundcube — webmail\n\n[[Category:Infrastructure]]',
  },
  { title: 'Category:Incidents', text: 'Pages about outages and what we learned from them.' },
  { title: 'Category:Infrastructure', text: 'Servers, networks and the tools around them.' },
  { title: 'Category:Handbooks', text: 'How we work.' },
];
