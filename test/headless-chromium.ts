/**
 * Headless Chromium for the end-to-end sign-in tests: Debian's `chromium` package (installed here with apt-get
 * when missing and running as root, as `.ci/run` does), driven by playwright-core with a fresh profile.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Where Debian's package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Installs Debian's chromium when it is missing (root only); throws with the reason otherwise. */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0)
    throw new Error(
      `${CHROMIUM} is missing; install Debian's chromium package (apt-get install chromium) as root.`,
    );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { env, stdio: 'ignore', timeout: 300_000 });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], {
    env,
    stdio: 'ignore',
    timeout: 600_000,
  });
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get install chromium did not provide ${CHROMIUM}.`);
}

/** A browser with a fresh profile; `close()` removes the profile. */
export interface HeadlessBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Launches headless Chromium with a fresh `--user-data-dir`. */
export async function launchChromium(): Promise<HeadlessBrowser> {
  ensureChromium();
  const profile = mkdtempSync(join(tmpdir(), 'recourse-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    timeout: 120_000,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
