/**
 * The person's side of a sign-in, in headless Chromium: open the authorization URL with no board session, sign in
 * with a password, then approve (as oneself or as a new assistant) or deny on the consent page, and wait until the
 * browser lands on the client's redirect.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** What the person does on the pages. */
export interface PageChoice {
  readonly login: string;
  readonly password: string;
  readonly assistant?: { name: string; role: string };
  readonly deny?: boolean;
}

/** Signs in and decides on the consent page; returns the text the consent page showed. */
export async function consentInBrowser(
  page: Page,
  authorizationUrl: string,
  choice: PageChoice,
  landing: RegExp,
): Promise<string> {
  await page.context().clearCookies(); // a person who is not signed in yet
  const first = await page.goto(authorizationUrl);
  expect(first?.headers()['content-security-policy']).toMatch(/default-src 'none'/);
  await page.fill('#login', choice.login);
  await page.fill('#password', choice.password);
  await page.click('button[type=submit]');
  await page.waitForSelector('text=Approve access to the board').catch(async (error: unknown) => {
    throw new Error(
      `no consent page after sign-in; the browser shows ${page.url()}: ${await page.content()}`,
      { cause: error },
    );
  });
  const shown = (await page.textContent('main')) ?? '';
  if (choice.assistant !== undefined) {
    await page.check('input[value=assistant]');
    await page.fill('#assistant-name', choice.assistant.name);
    await page.selectOption('#assistant-role', choice.assistant.role);
  }
  await Promise.all([
    page.waitForURL(landing, { timeout: 60_000 }),
    page.click(choice.deny === true ? 'button[value=deny]' : 'button[value=approve]'),
  ]);
  return shown;
}
