import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../src/rungs/ui/browser.js';
import { type RedmineApp, startApp } from './bed.js';
import { signIn } from './sign-in.js';

let app: RedmineApp;
let browser: Browser;

// The first start on a machine runs Redmine's migrations (minutes; later starts load their cache).
beforeAll(async () => {
  [app, browser] = await Promise.all([startApp('redmine'), launchBrowser()]);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('the Redmine bed', () => {
  it('asks for a sign-in first, then shows the projects to the administrator', async () => {
    const page = await browser.newPage();
    await page.goto(app.startUrl);
    // login_required: a stranger lands on the login form.
    expect(new URL(page.url()).pathname).toBe('/login');
    await signIn(page, app);
    await page.goto(app.startUrl);
    await page.getByRole('link', { name: 'Northwind Web', exact: true }).first().waitFor({ timeout: 15_000 });
    expect(await page.getByRole('link', { name: 'Roadmap', exact: true }).count()).toBeGreaterThan(0);
    await page.close();
  });

  it('reads the seeded issues, users and projects through the REST API', async () => {
    expect(app.seed.issues['Cannot log in after password reset']).toBe(2);
    expect(await app.state.issue(2)).toMatchObject({
      subject: 'Cannot log in after password reset',
      status: 'In Progress',
      tracker: 'Bug',
      project: 'Northwind Web',
      assignee: 'Al Li',
      estimatedHours: 3,
    });
    expect(await app.state.issue(3)).toMatchObject({ subject: 'New', status: 'Resolved' });
    expect((await app.state.issue(1))?.estimatedHours).toBe(1.5);
    expect(await app.state.issue(12)).toMatchObject({
      subject: 'Search returns nothing for "2"',
      status: 'New',
    });
    expect(await app.state.issue(999)).toBeUndefined();
    expect((await app.state.issues({ subject: 'Closed' })).map((issue) => issue.status)).toEqual([
      'Resolved',
    ]);
    expect((await app.state.issues({ project: 'ops' })).length).toBe(4);
    expect(await app.state.userByLogin('user')).toMatchObject({
      firstname: 'User',
      mail: 'user@northwind.test',
    });
    expect(await app.state.userByLogin('nobody')).toBeUndefined();
    expect((await app.state.projects()).map((project) => project.identifier).sort()).toEqual([
      'ops',
      'roadmap',
      'web',
    ]);
  });

  it('sees an issue created through the New issue form, and forgets it after a reset', async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    await page.goto(`${app.origin}/projects/web/issues/new`);
    await page.getByLabel('Subject').fill('Smoke test issue');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/issues\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    expect(id).toBe(Object.keys(app.seed.issues).length + 1);
    expect(await app.state.issue(id)).toMatchObject({ subject: 'Smoke test issue', status: 'New' });
    await page.close();

    await app.reset();
    expect(await app.state.issue(id)).toBeUndefined();
    expect((await app.state.issues()).length).toBe(Object.keys(app.seed.issues).length);
  });

  it('signs every browser out with a reset (its sessions are tokens in the database)', async () => {
    const page = await browser.newPage();
    await signIn(page, app);
    await app.reset();
    await page.goto(app.startUrl);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.close();
  });
});
