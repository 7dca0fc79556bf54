/**
 * The board's pages in headless Chromium: a person signs in, creates and moves a task, sees a task an assistant
 * created over MCP appear without reloading, sees a contributor's refusal in the tool's own words, meets an
 * edit conflict instead of overwriting, and cannot use any page without signing in; a viewer sees no edit
 * controls and a forged form post is refused. Screenshots go to `.tmp/screenshots/` (git-ignored).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestBoard, textOf, type TestBoard } from '../apps/board/src/testing/board-host.ts';
import { memberPrincipal, type Member } from '../apps/board/src/domain/member.ts';
import { localWriteContext } from '../apps/board/src/services/write-context.ts';
import { failureMetaOf } from '../apps/board/src/testing/board-host.ts';
import { launchChromium, type HeadlessBrowser } from './headless-chromium.ts';

const PASSWORD = 'correct horse battery staple';
const SCRIPTED = 'Scripted assistant';
// Calls refused for permission are not counted (the check comes first): six counted calls, then the refusal.
const SCRIPTED_LIMIT = 6;
const SHOTS = join(process.cwd(), '.tmp', 'screenshots');

let browser: HeadlessBrowser;
let tb: TestBoard;
let origin: string;
let casey: Member;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
  tb = await startTestBoard({
    oauth: {},
    // The scripted assistant of the console test has a small limit, so that its session meets rate_limit.
    rateLimit: { perCaller: (p) => (p.name === SCRIPTED ? SCRIPTED_LIMIT : undefined) },
  });
  origin = new URL(tb.url).origin;
  casey = await tb.board.services.members.add({ name: 'Casey', kind: 'person', role: 'contributor' });
  for (const id of [tb.members.owner.id, tb.members.viewer.id, casey.id])
    await tb.board.accounts.setPassword(id, PASSWORD);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await tb?.close();
});

async function signIn(page: Page, login: string, next = '/board'): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${origin}${next}`);
  expect(new URL(page.url()).pathname).toBe('/board/signin');
  await page.fill('#login', login);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL((url) => url.pathname === next), page.click('button[type=submit]')]);
}

describe('the board pages in a real browser', () => {
  it('signs in, creates and moves a task, and shows an assistant’s new task without reloading', async () => {
    const page = await browser.context.newPage();
    try {
      await signIn(page, tb.members.owner.id);
      const response = await page.goto(`${origin}/board`);
      expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
      expect(response?.headers()['content-security-policy']).not.toMatch(/unsafe-inline/);

      await page.click('a[href="/board/new"]');
      await page.fill('#n-title', 'Write the release notes');
      await page.fill('#n-description', 'Cover the board pages.');
      await page.fill('#n-labels', 'docs');
      await Promise.all([page.waitForURL(/\/board\/tasks\/T-\d+$/), page.click('button[type=submit]')]);
      const ref = new URL(page.url()).pathname.split('/').at(-1) ?? '';
      expect(await page.textContent('#task-status')).toBe('todo');
      await page.selectOption('#m-status', 'doing');
      await Promise.all([page.waitForURL(/\/board\/tasks\/T-\d+$/), page.click('#move-h ~ button')]);
      expect(await page.textContent('#task-status')).toBe('doing');
      await page.fill('#c-body', 'Started on it.');
      await Promise.all([page.waitForURL(/\/board\/tasks\//), page.click('#comment-h ~ button')]);
      expect(await page.textContent('main')).toContain('Started on it.');
      await page.screenshot({ path: join(SHOTS, 'task.png'), fullPage: true });

      const stored = await tb.board.services.tasks.get(ref);
      expect(stored.task).toMatchObject({
        title: 'Write the release notes',
        status: 'doing',
        labels: ['docs'],
      });
      const logged = await tb.board.callLog.recent({ memberId: tb.members.owner.id });
      expect(logged.map((e) => e.tool)).toEqual(expect.arrayContaining(['tasks_create', 'tasks_move']));

      await page.goto(`${origin}/board`);
      expect(await page.textContent('[data-status=doing]')).toContain('Write the release notes');
      const assistant = await tb.connect('modern', 'maintainer');
      const created = await assistant.callTool({
        name: 'tasks_create',
        arguments: { title: 'Triage the flaky test', status: 'review' },
      });
      expect(created.isError).toBeFalsy();
      await assistant.close();
      await page.waitForSelector('[data-status=review] >> text=Triage the flaky test', { timeout: 15_000 });
      expect(await page.textContent('#live-status')).toMatch(/updated/);
      await page.screenshot({ path: join(SHOTS, 'board.png'), fullPage: true });

      await page.fill('#f-label', 'docs');
      await Promise.all([page.waitForURL(/label=docs/), page.click('form[role=search] button')]);
      expect(await page.locator('#columns .card').allTextContents()).toEqual([
        expect.stringContaining('Write the release notes'),
      ]);
      await page.fill('#f-label', '');
      await page.fill('#f-text', 'flaky');
      await Promise.all([page.waitForURL(/q=flaky/), page.click('form[role=search] button')]);
      expect(await page.locator('#columns .card').allTextContents()).toEqual([
        expect.stringContaining('Triage the flaky test'),
      ]);
      await page.goto(`${origin}/board?assignee=none&label=no-such-label`);
      expect(await page.locator('#columns .card').count()).toBe(0);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('shows a contributor the refusal text a model gets, and a stale edit shows the conflict', async () => {
    const page = await browser.context.newPage();
    try {
      const task = await tb.board.services.tasks.create(
        localWriteContext(memberPrincipal(tb.members.owner)),
        {
          title: 'Owner only task',
        },
      );
      await signIn(page, casey.id);
      await page.goto(`${origin}/board/tasks/${task.ref}`);
      await page.selectOption('#m-status', 'done');
      const [moved] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/move')),
        page.click('#move-h ~ button'),
      ]);
      expect(moved.status()).toBe(403);
      const shown = (await page.textContent('#action-problem')) ?? '';
      const viaMcp = await tb.connect('modern', 'contributor');
      const refused = await viaMcp.callTool({
        name: 'tasks_move',
        arguments: { ref: task.ref, status: 'done' },
      });
      await viaMcp.close();
      const normalise = (text: string) =>
        text
          .replaceAll(casey.id, 'M')
          .replaceAll(tb.members.contributor.id, 'M')
          .replace(/\s+/g, ' ')
          .replace(/\bc_[A-Za-z0-9_-]+/g, 'C')
          .trim();
      expect(refused.isError).toBe(true);
      expect(normalise(shown)).toBe(normalise(textOf(refused)));
      expect((await tb.board.services.tasks.get(task.ref)).task.status).toBe('todo');

      await signIn(page, tb.members.owner.id);
      await page.goto(`${origin}/board/tasks/${task.ref}`);
      const versionShown = Number(await page.textContent('#task-version'));
      const owner = await tb.connect('modern', 'owner');
      await owner.callTool({
        name: 'tasks_update',
        arguments: { ref: task.ref, expectedVersion: versionShown, title: 'Renamed by an assistant' },
      });
      await owner.close();
      await page.fill('#e-title', 'Renamed in the browser');
      const [edited] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/edit')),
        page.click('#edit-h ~ button'),
      ]);
      expect(edited.status()).toBe(409);
      expect(await page.textContent('#action-problem')).toMatch(/version/i);
      expect(Number(await page.textContent('#task-version'))).toBe(versionShown + 1);
      expect(await page.textContent('h1')).toContain('Renamed by an assistant');
      expect(await page.inputValue('#e-title')).toBe('Renamed in the browser');
      expect((await tb.board.services.tasks.get(task.ref)).task.title).toBe('Renamed by an assistant');
    } finally {
      await page.close();
    }
  }, 120_000);

  it('needs sign-in for every page, hides edit controls from a viewer, and refuses a forged post', async () => {
    const page = await browser.context.newPage();
    try {
      await page.context().clearCookies();
      for (const path of ['/board', '/board/members', '/board/new', '/board/tasks/T-1', '/board/console']) {
        await page.goto(`${origin}${path}`);
        expect(new URL(page.url()).pathname).toBe('/board/signin');
      }
      const anonymous = await page.context().request.post(`${origin}/board/new`, {
        form: { title: 'sneaky' },
        maxRedirects: 0,
      });
      expect(anonymous.status()).toBe(401);

      await signIn(page, tb.members.viewer.id, '/board/tasks/T-1');
      expect(await page.textContent('main')).toContain('Description');
      expect(await page.locator('main form[method=post]').count()).toBe(0);

      await signIn(page, tb.members.owner.id);
      const before = (await tb.board.services.tasks.search({ limit: 1000, offset: 0 })).total;
      const forged = await page.context().request.post(`${origin}/board/new`, {
        form: { title: 'forged', csrf: 'not-the-token' },
        headers: { origin },
      });
      expect(forged.status()).toBe(403);
      expect(await forged.text()).toContain('CSRF token does not match');
      const crossSite = await page.context().request.post(`${origin}/board/new`, {
        form: { title: 'forged' },
        headers: { origin: 'http://evil.example' },
      });
      expect([403]).toContain(crossSite.status());
      expect((await tb.board.services.tasks.search({ limit: 1000, offset: 0 })).total).toBe(before);

      // Another site cannot sign a person out (a GET only shows the form, whose token a POST needs); the board's own button does.
      const crossSiteSignout = await page.context().request.post(`${origin}/board/signout`, {
        headers: { origin: 'http://evil.example' },
        maxRedirects: 0,
      });
      expect(crossSiteSignout.status()).toBe(403);
      const tokenless = await page.context().request.post(`${origin}/board/signout`, {
        form: { csrf: '' },
        headers: { origin },
        maxRedirects: 0,
      });
      expect(tokenless.status()).toBe(403);
      await page.goto(`${origin}/board`);
      expect(new URL(page.url()).pathname).toBe('/board');
      await page.click('a[href="/board/signout"]');
      expect(new URL(page.url()).pathname).toBe('/board/signout');
      expect(await page.textContent('main')).toContain('Sign out');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.pathname === '/board/signin');
      await page.goto(`${origin}/board`);
      expect(new URL(page.url()).pathname).toBe('/board/signin');
    } finally {
      await page.close();
    }
  }, 120_000);
});

describe('the failure console in a real browser', () => {
  it('shows a scripted assistant session with exactly its calls, categories and counts, and finds each by correlation id', async () => {
    const bot = await tb.board.services.members.add({
      name: SCRIPTED,
      kind: 'assistant',
      role: 'contributor',
    });
    const { token } = await tb.board.services.tokens.create(bot.id);
    const target = await tb.board.services.tasks.create(
      localWriteContext(memberPrincipal(tb.members.owner)),
      {
        title: 'Prepare the release checklist',
      },
    );
    const ref = target.ref;
    const client = await tb.connectWithToken(token);
    const script: [string, Record<string, unknown>, string][] = [
      ['tasks_get', { ref: 'T-999' }, 'not_found'],
      ['tasks_search', { query: 'checklist' }, 'ok'],
      ['tasks_get', { ref }, 'ok'],
      ['tasks_create', { title: '' }, 'validation'],
      ['tasks_create', { title: 'Scripted task' }, 'ok'],
      ['tasks_delete', { ref }, 'permission'],
      ['tasks_comment', { ref, body: 'I cannot delete this; an owner should.' }, 'ok'],
      ['whoami', {}, 'rate_limit'],
    ];
    const failures: { tool: string; category: string; correlationId: string }[] = [];
    for (const [name, args, expected] of script) {
      const result = await client.callTool({ name, arguments: args });
      const meta = failureMetaOf(result);
      expect({ name, outcome: result.isError === true ? meta?.['category'] : 'ok' }).toEqual({
        name,
        outcome: expected,
      });
      if (meta !== undefined)
        failures.push({
          tool: name,
          category: String(meta['category']),
          correlationId: String(meta['correlationId']),
        });
    }
    await client.close();

    const page = await browser.context.newPage();
    try {
      await signIn(page, tb.members.owner.id, '/board/console');
      await page.selectOption('#k-member', bot.id);
      await Promise.all([page.waitForURL(/member=/), page.click('form[role=search] button')]);
      const rows = page.locator('#calls tbody tr');
      expect(
        await rows.evaluateAll((trs) =>
          trs.map((tr) => [tr.getAttribute('data-tool'), tr.getAttribute('data-outcome')]),
        ),
      ).toEqual(script.map(([name, , outcome]) => [name, outcome]));
      const counts = Object.fromEntries(
        await page
          .locator('#outcome-counts li')
          .evaluateAll((lis) =>
            lis.map((li) => [
              li.getAttribute('data-outcome'),
              Number(li.querySelector('.count')?.textContent),
            ]),
          ),
      );
      expect(counts).toEqual({ ok: 4, not_found: 1, validation: 1, permission: 1, rate_limit: 1 });
      const memberChart = page.locator('#chart-member-0');
      expect(
        await memberChart
          .locator('polyline')
          .evaluateAll((ls) => ls.map((l) => l.getAttribute('data-category'))),
      ).toEqual(['validation', 'not_found', 'permission', 'rate_limit']);
      await page.screenshot({ path: join(SHOTS, 'console.png'), fullPage: true });

      await page.selectOption('#k-outcome', 'not_found');
      await Promise.all([page.waitForURL(/outcome=not_found/), page.click('form[role=search] button')]);
      expect(await rows.count()).toBe(1);

      await page.goto(`${origin}/board/console/session?member=${bot.id}`);
      const firstRow = (await page.locator('#session tbody tr').first().textContent()) ?? '';
      expect(firstRow).toContain('not_found');
      expect(firstRow).toContain('recovered by tasks_search');
      await page.screenshot({ path: join(SHOTS, 'session.png'), fullPage: true });

      for (const failure of failures) {
        await page.goto(`${origin}/board/console`);
        await page.fill('#k-correlation', failure.correlationId);
        await Promise.all([page.waitForURL(/\/console\/calls/), page.click('#k-correlation ~ button')]);
        const row = (await page.locator('#call tbody tr').textContent()) ?? '';
        expect(row).toContain(failure.tool);
        expect(row).toContain(failure.category);
        expect(row).toContain(failure.correlationId);
        if (failure.category === 'not_found')
          expect(await page.textContent('#log-lines')).toMatch(
            /tool call refused.*TASK_NOT_FOUND|TASK_NOT_FOUND.*tool call refused/,
          );
        expect(await page.textContent('main')).not.toMatch(/stack|at .*\.ts:\d+/);
      }

      await signIn(page, casey.id, '/board');
      expect((await page.goto(`${origin}/board/console`))?.status()).toBe(403);
      await tb.board.accounts.setPassword(tb.members.maintainer.id, PASSWORD);
      await signIn(page, tb.members.maintainer.id, '/board/console');
      expect(await page.locator('#calls tbody tr').count()).toBeGreaterThanOrEqual(script.length);
      const lookup = await page.goto(`${origin}/board/console/calls/${failures[0]?.correlationId ?? ''}`);
      expect(lookup?.status()).toBe(403);
    } finally {
      await page.close();
    }
  }, 180_000);
});
