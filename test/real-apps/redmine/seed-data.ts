/**
 * What the bed's Redmine holds after seeding: a tracker's projects, people and issues.
 * Awkward on purpose: issue ids 2, 3 and 12; a project named like Redmine's own Roadmap tab;
 * subjects with error words ("Contact form returns 500", "Cannot log in") and one that is a
 * status word ("New"); the logins `al` and `user`; an estimate of 1.5 hours (Redmine shows 1:30
 * or 1.50 depending on a setting).
 */

export const REDMINE_SITE = 'Northwind Tracker';
export const REDMINE_ADMIN = { login: 'admin', password: 'rm-admin-pass-1' } as const;

export interface RedmineSeedUser {
  login: string;
  firstname: string;
  lastname: string;
  mail: string;
  password: string;
}

export const REDMINE_USERS: RedmineSeedUser[] = [
  {
    login: 'jdoe',
    firstname: 'Jane',
    lastname: 'Doe',
    mail: 'jane.doe@northwind.test',
    password: 'rm-jdoe-pass-1',
  },
  { login: 'al', firstname: 'Al', lastname: 'Li', mail: 'al@northwind.test', password: 'rm-al-pass-1' },
  { login: 'bob', firstname: 'Bob', lastname: 'Stone', mail: 'bob@stone.test', password: 'rm-bob-pass-1' },
  {
    login: 'user',
    firstname: 'User',
    lastname: 'Account',
    mail: 'user@northwind.test',
    password: 'rm-user-pass-1',
  },
];

export interface RedmineSeedProject {
  identifier: string;
  name: string;
  description: string;
  /** Logins that are members, with Redmine's default role names. */
  members: Array<{ login: string; role: 'Manager' | 'Developer' | 'Reporter' }>;
}

export const REDMINE_PROJECTS: RedmineSeedProject[] = [
  {
    identifier: 'web',
    name: 'Northwind Web',
    description: 'The public website and the customer portal.',
    members: [
      { login: 'jdoe', role: 'Manager' },
      { login: 'al', role: 'Developer' },
      { login: 'user', role: 'Reporter' },
    ],
  },
  {
    identifier: 'ops',
    name: 'Ops',
    description: 'Servers, certificates and backups.',
    members: [
      { login: 'bob', role: 'Manager' },
      { login: 'al', role: 'Developer' },
    ],
  },
  {
    identifier: 'roadmap',
    name: 'Roadmap',
    description: 'A project named like the Roadmap tab.',
    members: [{ login: 'jdoe', role: 'Manager' }],
  },
];

export interface RedmineSeedIssue {
  project: string;
  tracker: 'Bug' | 'Feature' | 'Support';
  status: 'New' | 'In Progress' | 'Resolved' | 'Feedback' | 'Closed' | 'Rejected';
  subject: string;
  description: string;
  assignee?: string;
  estimatedHours?: number;
}

/** Created in this order: the first gets id 1. */
export const REDMINE_ISSUES: RedmineSeedIssue[] = [
  {
    project: 'web',
    tracker: 'Bug',
    status: 'New',
    subject: 'Contact form returns 500',
    description: 'Submitting the contact form with an attachment answers Internal Server Error.',
    assignee: 'jdoe',
    estimatedHours: 1.5,
  },
  {
    project: 'web',
    tracker: 'Bug',
    status: 'In Progress',
    subject: 'Cannot log in after password reset',
    description: 'The reset link works, but the new password is refused.',
    assignee: 'al',
    estimatedHours: 3,
  },
  {
    project: 'web',
    tracker: 'Feature',
    status: 'Resolved',
    subject: 'New',
    description: 'A "New" badge on products added this week.',
    assignee: 'al',
  },
  {
    project: 'web',
    tracker: 'Feature',
    status: 'Closed',
    subject: 'Release 2.0 notes',
    description: 'Write the notes for release 2.0.',
    assignee: 'jdoe',
  },
  {
    project: 'web',
    tracker: 'Bug',
    status: 'Feedback',
    subject: 'Error 404 on /pricing',
    description: 'The pricing page is missing since the menu changed.',
  },
  {
    project: 'web',
    tracker: 'Support',
    status: 'New',
    subject: 'Customer asks for an invoice copy',
    description: 'Invoice 2 for November, sent to the wrong address.',
    assignee: 'user',
  },
  {
    project: 'ops',
    tracker: 'Feature',
    status: 'In Progress',
    subject: 'Rotate TLS certificates',
    description: 'Before the end of the month.',
    assignee: 'bob',
    estimatedHours: 2,
  },
  {
    project: 'ops',
    tracker: 'Bug',
    status: 'New',
    subject: 'Disk full on db-2',
    description: 'Backups stopped on Monday.',
    assignee: 'al',
  },
  {
    project: 'ops',
    tracker: 'Bug',
    status: 'Rejected',
    subject: 'Server 12 unreachable',
    description: 'It was switched off on purpose.',
    assignee: 'bob',
  },
  {
    project: 'ops',
    tracker: 'Support',
    status: 'Resolved',
    subject: 'Closed',
    description: 'A subject that is a status word.',
  },
  {
    project: 'roadmap',
    tracker: 'Feature',
    status: 'New',
    subject: 'Plan Q3',
    description: 'Roadmap for the third quarter.',
    assignee: 'jdoe',
  },
  {
    project: 'web',
    tracker: 'Bug',
    status: 'New',
    subject: 'Search returns nothing for "2"',
    description: 'Short queries are ignored.',
    assignee: 'jdoe',
  },
];
