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
import { launchChromium, type HeadlessBrowser } from './headless-chromium.ts';

const PASSWORD = 'correct horse battery staple';
const SHOTS = join(process.cwd(), '.tmp', 'screenshots');

let browser: HeadlessBrowser;
let tb: TestBoard;
let origin: string;
let casey: Member;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
  tb = await startTestBoard({ oauth: {} });
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
    } finally {
      await page.close();
    }
  }, 120_000);
});
