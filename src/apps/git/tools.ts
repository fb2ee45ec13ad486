import { isAbsolute, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { type AnyTool, defineTool } from '../../contract/define-tool.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import type { ErrorPattern } from '../../rungs/cli/exit-status.js';
import { parseRegexRows } from '../../rungs/cli/parsers.js';
import { runWrapped } from '../../rungs/cli/run-wrapped.js';

const ASKPASS = fileURLToPath(new URL('../../../src/apps/git/askpass.sh', import.meta.url));

export interface GitSettings {
  /**
   * Repositories must live under one of these folders, symlinks followed (default: the working
   * folder; lift.config `settings.git.roots` overrides both).
   */
  allowedRoots?: readonly string[];
  /** Secrets holding the HTTP username and password (or token) for remotes that ask. */
  credentials?: { usernameSecret: string; passwordSecret: string };
}

const AUTH_PATTERNS: ErrorPattern[] = [
  {
    pattern:
      /could not read (Username|Password)|Authentication failed|terminal prompts disabled|403 Forbidden|401 Unauthorized/i,
    code: 'AUTH_REQUIRED',
    message: 'The remote asked for credentials the wrapper does not have, or refused them.',
    hint: 'A person must store the remote credentials (lift secrets set NAME) for this tool. Nothing was pushed.',
    outcome: 'not_started',
  },
  {
    pattern: /not a git repository/i,
    code: 'NOT_FOUND',
    message: 'The folder is not a git repository.',
    outcome: 'not_started',
  },
  {
    pattern: /\[rejected\]|non-fast-forward|fetch first/i,
    code: 'CONFLICT',
    message: 'The remote has commits the local branch does not; the push was rejected.',
    outcome: 'not_started',
  },
];

const RepoPath = z
  .string()
  .min(1)
  .max(4_096)
  .refine(
    (path) => isAbsolute(path) && normalize(path) === path.replace(/\/$/, '') && !path.includes('..'),
    'an absolute, normalised path',
  )
  .describe('Absolute path of the repository folder, e.g. /srv/repos/inventory; no .. or trailing /.');

const repoScope = (settings: GitSettings) => ({
  family: 'git',
  what: 'repo_path',
  roots: settings.allowedRoots,
});

/** The repository's real folder, inside the roots (see ToolContext.resolvePath). */
function repoIn(settings: GitSettings, ctx: ToolContext, path: string): string {
  return ctx.resolvePath(path, repoScope(settings));
}

/** Runs git in a repository with credentials (if any) from the secret store via the askpass helper. */
function git(
  settings: GitSettings,
  ctx: ToolContext,
  repo: string,
  args: string[],
  extra: { started?: boolean } = {},
) {
  const credentials = settings.credentials;
  const haveCredentials =
    credentials && ctx.hasSecret(credentials.usernameSecret) && ctx.hasSecret(credentials.passwordSecret);
  return runWrapped({
    program: 'git',
    args: ['-C', repo, '-c', 'credential.helper=', '-c', 'core.askPass=', ...args],
    deadline: ctx.deadline,
    signal: ctx.signal,
    env:
      haveCredentials && credentials
        ? {
            GIT_ASKPASS: ASKPASS,
            LIFT_GIT_USERNAME: ctx.secret(credentials.usernameSecret),
            LIFT_GIT_PASSWORD: ctx.secret(credentials.passwordSecret),
          }
        : {},
    errorPatterns: AUTH_PATTERNS,
    cap: 256 * 1024,
    // A subcommand that only reads (a push's look at its branch first) starts nothing.
    ...(extra.started ? {} : { effectStarts: 'confirmation' as const }),
  });
}

const COMMIT_LINE = /^(?<sha>[0-9a-f]{40})\x1f(?<author>[^\x1f]*)\x1f(?<date>[^\x1f]*)\x1f(?<subject>.*)$/;

export function gitTools(settings: GitSettings = {}): AnyTool[] {
  const Repo = RepoPath;
  const Ref = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$/, 'a branch or remote name');

  const logTool = defineTool({
    name: 'git_log_read',
    title: 'Read recent commits',
    description:
      "Lists the most recent commits of a repository, newest first. Returns each commit's sha, author, date and subject.",
    group: 'git',
    rung: 'cli',
    input: z.strictObject({
      repo_path: Repo,
      max_count: z.number().int().min(1).max(200).default(20).describe('How many commits to list.'),
      ref: Ref.optional().describe('Branch, tag or remote branch to read (default: the checked-out branch).'),
    }),
    output: z.object({
      commits: z
        .array(
          z.object({
            sha: z.string().describe('Full 40-character commit id.'),
            author: z.string().describe('Author name.'),
            date: z.string().describe('Author date, ISO 8601 with offset.'),
            subject: z.string().describe('First line of the message.'),
          }),
        )
        .describe('Newest first.'),
    }),
    cap: { chars: 32_000, rows: 200, narrow: 'Lower max_count.' },
    errors: { NOT_FOUND: { retry: 'no', hint: 'Check repo_path: it must be a git repository.' } },
    effect: { class: 'read' },
    timeout: { deadlineMs: 15_000 },
    paths: (input) => [{ path: input.repo_path, scope: repoScope(settings) }],
    example: { repo_path: '/srv/repos/inventory', max_count: 10 },
    run: async (input, ctx) => {
      const result = await git(settings, ctx, repoIn(settings, ctx, input.repo_path), [
        'log',
        `--max-count=${input.max_count}`,
        '--format=%H%x1f%an%x1f%aI%x1f%s',
        ...(input.ref ? [input.ref, '--'] : []),
      ]);
      const commits = parseRegexRows('git log', result.stdout, COMMIT_LINE).value.map((row) => ({
        sha: row.sha ?? '',
        author: row.author ?? '',
        date: row.date ?? '',
        subject: row.subject ?? '',
      }));
      return {
        fields: { commits },
        summary: `${commits.length} commit(s)`,
        verifiedBy: 'git log with a fixed format (rung 2)',
      };
    },
  });

  const pushTool = defineTool({
    name: 'git_branch_push',
    title: 'Push a branch to a remote',
    description:
      'Pushes one local branch to the same branch on a remote (never forced) and reads the remote branch back. Returns the pushed sha and the sha the remote now has.',
    group: 'git',
    rung: 'cli',
    input: z.strictObject({
      repo_path: Repo,
      remote: Ref.default('origin').describe('Remote name as in git remote.'),
      branch: Ref.describe('Local branch, pushed to the same name on the remote.'),
      request_id: RequestIdSchema,
    }),
    output: z.object({
      remote: z.string().describe('Remote pushed to.'),
      branch: z.string().describe('Branch pushed.'),
      sha: z.string().describe('Local commit id that was pushed.'),
      remote_sha: z.string().describe("Remote branch's commit id, read back after the push."),
    }),
    errors: {
      CONFLICT: {
        retry: 'no',
        hint: 'Fetch and integrate the remote commits first; this tool never forces.',
      },
      NOT_FOUND: { retry: 'no', hint: 'Check repo_path and branch.' },
    },
    effect: {
      class: 'visible',
      gate: 'review',
      repeat: 'Pushing the same commit again changes nothing (effect: no_change).',
    },
    timeout: { deadlineMs: 60_000, settle: 'git ls-remote of the branch: compare with the local sha' },
    session: {
      secret: settings.credentials?.passwordSecret ?? 'none',
      onExpiry: 'AUTH_REQUIRED at once; git is never allowed to ask.',
    },
    paths: (input) => [{ path: input.repo_path, scope: repoScope(settings) }],
    preview: (input) => `git push ${input.remote} ${input.branch} in ${input.repo_path}`,
    example: {
      repo_path: '/srv/repos/inventory',
      remote: 'origin',
      branch: 'main',
      request_id: 'push-5b0c7d11',
    },
    run: async (input, ctx) => {
      const repo = repoIn(settings, ctx, input.repo_path);
      const local = (
        await git(settings, ctx, repo, ['rev-parse', '--verify', `refs/heads/${input.branch}`])
      ).stdout.text.trim();
      const remoteSha = async () => {
        const listed = await git(settings, ctx, repo, [
          'ls-remote',
          input.remote,
          `refs/heads/${input.branch}`,
        ]);
        return listed.stdout.text.split('\t')[0]?.trim() ?? '';
      };
      const before = await remoteSha();
      if (before === local) {
        return {
          fields: { remote: input.remote, branch: input.branch, sha: local, remote_sha: before },
          summary: `${input.remote}/${input.branch} already at ${local.slice(0, 12)}`,
          effect: 'no_change',
          verifiedBy: 'git ls-remote (rung 2)',
        };
      }
      await git(
        settings,
        ctx,
        repo,
        ['push', '--porcelain', input.remote, `refs/heads/${input.branch}:refs/heads/${input.branch}`],
        {
          started: true,
        },
      );
      const after = await remoteSha();
      if (after !== local) {
        throw new LiftError(
          'CHECK_FAILED',
          `The remote branch is at ${after || 'nothing'}, not ${local}, after the push.`,
          {
            outcome: 'unknown',
          },
        );
      }
      return {
        fields: { remote: input.remote, branch: input.branch, sha: local, remote_sha: after },
        summary: `Pushed ${input.branch} to ${input.remote} at ${local.slice(0, 12)}`,
        effect: 'changed',
        verifiedBy: 'git ls-remote (rung 2) shows the pushed sha',
      };
    },
  });

  return [logTool, pushTool];
}
