// Headless Chromium for the browser tests, driven by playwright-core. This is
// the only reader of CHROMIUM_PATH and CONSOLE_DOCS_SCREENSHOTS. The browser is
// a system one where possible (Debian's chromium, which .ci/run installs),
// because playwright-core downloads nothing by itself.
import { existsSync, mkdirSync, writeFileSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestContext } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'e2e', '.artifacts', 'console');
export const DOCS_SCREENSHOTS_DIR = path.join(REPO_ROOT, 'docs', 'console');
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export const NO_CHROMIUM_HINT =
  'No Chromium found. Install Debian\u2019s chromium (`sudo apt-get install chromium`), set CHROMIUM_PATH, ' +
  'or run `pnpm --filter @effectively-once/e2e exec playwright-core install --only-shell chromium`.';

/**
 * Playwright adds --headless, --no-sandbox and a fresh profile itself. These
 * keep Chromium from calling home (updates, sync, field trials): on a closed
 * network those connections are refused, many at a time, and slow the start.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Which Chromium to drive: CHROMIUM_PATH when set (it must exist), else
 * Debian's /usr/bin/chromium when installed, else `undefined`, which lets
 * Playwright use the browser it installed itself (see NO_CHROMIUM_HINT).
 */
export function chromiumExecutable(
  env: NodeJS.ProcessEnv = process.env,
  exists: (file: string) => boolean = existsSync,
): string | undefined {
  const configured = env['CHROMIUM_PATH'];
  if (configured !== undefined && configured !== '') {
    if (!exists(configured)) {
      throw new Error(`CHROMIUM_PATH is set to ${configured}, which does not exist.`);
    }
    return configured;
  }
  return exists(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined;
}

export interface ScreenshotOptions {
  /** Also write docs/console/<docsName>.png when CONSOLE_DOCS_SCREENSHOTS=true (`pnpm docs:console`). */
  docsName?: string;
}

export interface BrowserSession {
  readonly browser: Browser;
  /** A page in a fresh context: 1280x800, reduced motion, en-GB, UTC. */
  newPage(): Promise<Page>;
  /** A full-page PNG in e2e/.artifacts/console/<name>.png; returns its path. */
  screenshot(page: Page, name: string, options?: ScreenshotOptions): Promise<string>;
  close(): Promise<void>;
}

async function launch(): Promise<Browser> {
  const executablePath = chromiumExecutable();
  const options = { headless: true, args: [...CHROMIUM_ARGS] };
  if (executablePath !== undefined) return chromium.launch({ ...options, executablePath });
  try {
    return await chromium.launch(options);
  } catch (error) {
    throw new Error(NO_CHROMIUM_HINT, { cause: error });
  }
}

/**
 * @example
 * const session = await openBrowser();
 * const page = await session.newPage();
 * await page.goto(gatewayUrl);
 * await session.screenshot(page, 'console-default--home');
 * await session.close();
 */
export async function openBrowser(): Promise<BrowserSession> {
  const browser = await launch();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  // The first artifact says which Chromium ran, so a failing CI run tells.
  const version = `chromium ${browser.version()} (${chromiumExecutable() ?? 'Playwright\u2019s own'})`;
  writeFileSync(path.join(ARTIFACTS_DIR, 'browser.txt'), `${version}\n`);
  console.info(`browser tests: ${version}`);
  const docsWanted = process.env['CONSOLE_DOCS_SCREENSHOTS'] === 'true';

  // One page at a time: a test's page keeps its event streams and polls open
  // until it is closed, so the next test's page closes the one before (after
  // that test's screenshots, failed or not, were taken).
  let previous: BrowserContext | undefined;
  return {
    browser,
    async newPage() {
      await previous?.close();
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        reducedMotion: 'reduce',
        locale: 'en-GB',
        timezoneId: 'UTC',
      });
      previous = context;
      return context.newPage();
    },
    async screenshot(page, name, options = {}) {
      const file = path.join(ARTIFACTS_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      if (docsWanted && options.docsName !== undefined) {
        mkdirSync(DOCS_SCREENSHOTS_DIR, { recursive: true });
        copyFileSync(file, path.join(DOCS_SCREENSHOTS_DIR, `${options.docsName}.png`));
      }
      return file;
    },
    close: () => browser.close(),
  };
}

export interface PageTracker {
  /** Every request whose origin is not the console's (data: and blob: URLs aside). */
  readonly offOrigin: string[];
  /** Uncaught exceptions in the page. */
  readonly errors: string[];
}

/** Records what a page asks for and what it throws, from now on. */
export function trackPage(page: Page, origin: string): PageTracker {
  const tracker: PageTracker = { offOrigin: [], errors: [] };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.origin !== origin) tracker.offOrigin.push(request.url());
  });
  page.on('pageerror', (error) => {
    tracker.errors.push(error.message);
  });
  return tracker;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export interface TestPage {
  readonly page: Page;
  /** The test's closing screenshot, e2e/.artifacts/console/<file>--<test>.png. */
  finish(options?: ScreenshotOptions): Promise<string>;
}

/**
 * A page for one test: when the test fails, its page is saved as
 * <file>--<test>--failed.png before anything closes it.
 */
export async function pageForTest(
  session: BrowserSession,
  context: TestContext,
  file: string,
): Promise<TestPage> {
  const page = await session.newPage();
  const name = `${file}--${slug(context.task.name)}`;
  context.onTestFailed(async () => {
    if (!page.isClosed()) await session.screenshot(page, `${name}--failed`);
  });
  return {
    page,
    finish: (options) => session.screenshot(page, name, options),
  };
}
