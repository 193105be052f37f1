/**
 * Launches the system Chromium (Debian package `chromium`) with playwright-core, the way every
 * browser test of this repository does. `npx playwright install` cannot download browsers here.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

export type { ProductionBuild, ProductionBuildOptions } from './build-for-production.js';
export { buildForProduction } from './build-for-production.js';
export { collectPageErrors } from './collect-page-errors.js';
export type { AxeViolation, RunAxeOptions } from './run-axe.js';
export { runAxe, WCAG21_AA_TAGS } from './run-axe.js';

/** Path of the Chromium binary: `$CHROMIUM_PATH`, else `/usr/bin/chromium`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags that keep a headless Chromium off the (closed) network and quiet as root. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A launched browser (playwright gives it a fresh temporary profile). */
export interface LaunchedBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Launches headless Chromium.
 * @throws Error when the binary is missing, saying how to install it
 */
export async function launchChromium(): Promise<LaunchedBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install it with "apt-get install -y chromium" or set CHROMIUM_PATH.`,
    );
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  return { browser, close: () => browser.close() };
}

/** Directory for test artifacts (screenshots): `<repo>/artifacts/<name>`. */
export function artifactsDir(name: string): string {
  return join(process.cwd(), 'artifacts', name);
}
