/** Redmine's state, read through its REST API with the administrator's API key (never its pages). */

export interface RedmineIssue {
  id: number;
  project: string;
  tracker: string;
  status: string;
  subject: string;
  description: string;
  /** The assignee's full name ("Jane Doe"), or undefined. */
  assignee: string | undefined;
  estimatedHours: number | undefined;
}

export interface RedmineUser {
  id: number;
  login: string;
  firstname: string;
  lastname: string;
  mail: string;
}

export interface RedmineProject {
  id: number;
  identifier: string;
  name: string;
}

export interface RedmineState {
  /** The issue as stored, or undefined when no issue has this id (Redmine answers 404). */
  issue(id: number): Promise<RedmineIssue | undefined>;
  /** Issues of every status (closed ones included), optionally of one project and with one subject. */
  issues(filter?: { project?: string; subject?: string }): Promise<RedmineIssue[]>;
  userByLogin(login: string): Promise<RedmineUser | undefined>;
  projects(): Promise<RedmineProject[]>;
}

interface RawIssue {
  id: number;
  project: { name: string };
  tracker: { name: string };
  status: { name: string };
  subject: string;
  description: string | null;
  assigned_to?: { name: string };
  estimated_hours?: number | null;
}

interface RawUser {
  id: number;
  login: string;
  firstname: string;
  lastname: string;
  mail: string;
}

/** A client of Redmine's REST API: JSON in and out, the API key in its header. */
export interface RedmineApi {
  get<T>(path: string, query?: Record<string, string>): Promise<T | undefined>;
  send<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

export function redmineApi(origin: string, apiKey: string): RedmineApi {
  const headers = { 'X-Redmine-API-Key': apiKey, 'Content-Type': 'application/json' };
  return {
    get: async <T>(path: string, query: Record<string, string> = {}) => {
      const url = new URL(`${origin}${path}`);
      for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
      const response = await fetch(url, { headers });
      const body = await response.text();
      if (response.status === 404) return undefined;
      if (!response.ok)
        throw new Error(`Redmine answered ${response.status} to GET ${path}: ${body.slice(0, 300)}`);
      return JSON.parse(body) as T;
    },
    send: async <T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => {
      const response = await fetch(`${origin}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok)
        throw new Error(`Redmine answered ${response.status} to ${method} ${path}: ${text.slice(0, 500)}`);
      return (text.trim() ? JSON.parse(text) : {}) as T;
    },
  };
}

function issueOf(raw: RawIssue): RedmineIssue {
  return {
    id: raw.id,
    project: raw.project.name,
    tracker: raw.tracker.name,
    status: raw.status.name,
    subject: raw.subject,
    description: raw.description ?? '',
    assignee: raw.assigned_to?.name,
    estimatedHours: raw.estimated_hours ?? undefined,
  };
}

export function redmineState(api: RedmineApi): RedmineState {
  return {
    issue: async (id) => {
      const found = await api.get<{ issue: RawIssue }>(`/issues/${id}.json`);
      return found && issueOf(found.issue);
    },
    issues: async (filter = {}) => {
      const query: Record<string, string> = { status_id: '*', limit: '100', sort: 'id' };
      if (filter.project) query.project_id = filter.project;
      if (filter.subject) query.subject = filter.subject;
      const found = await api.get<{ issues: RawIssue[] }>('/issues.json', query);
      // The subject filter matches words; the reader answers exact subjects only.
      return (found?.issues ?? [])
        .map(issueOf)
        .filter((issue) => filter.subject === undefined || issue.subject === filter.subject);
    },
    userByLogin: async (login) => {
      // Every status (1 active, 2 registered, 3 locked); `name` matches logins, names and mails.
      const found = await api.get<{ users: RawUser[] }>('/users.json', {
        name: login,
        status: '',
        limit: '100',
      });
      const user = found?.users.find((candidate) => candidate.login === login);
      return (
        user && {
          id: user.id,
          login: user.login,
          firstname: user.firstname,
          lastname: user.lastname,
          mail: user.mail,
        }
      );
    },
    projects: async () => {
      const found = await api.get<{ projects: Array<RedmineProject> }>('/projects.json', { limit: '100' });
      return (found?.projects ?? []).map(({ id, identifier, name }) => ({ id, identifier, name }));
    },
  };
}
