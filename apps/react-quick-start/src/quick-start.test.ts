/**
 * The react-renderer README's quick start runs as written: this app (its code, `src/main.tsx`)
 * builds with vite, and in Chromium renders the agent's surface, with the stylesheet applied,
 * and sends a click to the agent.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  artifactsDir,
  buildForProduction,
  collectPageErrors,
  type LaunchedBrowser,
  launchChromium,
} from '@a2ui-ts/test-browser';
import type { SseJsonRpcNodeServer } from '@a2ui-ts/transport-sse-jsonrpc/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQuickStartServer } from './start-server.js';

describe('react-renderer quick start', () => {
  let dir: string;
  let server: SseJsonRpcNodeServer;
  let browser: LaunchedBrowser;
  let buildWarnings: readonly string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'a2ui-quick-start-'));
    ({ warnings: buildWarnings } = await buildForProduction({
      configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
      outDir: dir,
      logLevel: 'error',
    }));
    [server, browser] = await Promise.all([
      startQuickStartServer({ clientDir: dir }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("is the react-renderer README's quick start, character for character", async () => {
    const readme = await readFile(
      fileURLToPath(new URL('../../../packages/react-renderer/README.md', import.meta.url)),
      'utf8',
    );
    const section = readme.slice(readme.indexOf('## Quick start'));
    const block = /```tsx\n([\s\S]*?)```/.exec(section)?.[1];
    const main = await readFile(fileURLToPath(new URL('./main.tsx', import.meta.url)), 'utf8');
    // The file's header comment is the only difference.
    expect(block).toBe(main.slice(main.indexOf('*/\n') + 3));
  });

  it('builds without a warning (`pnpm start` prints none, the chunk size one included)', () => {
    expect(buildWarnings).toEqual([]);
  });

  it('builds, renders the agent with the stylesheet, and round-trips an action', async () => {
    const page = await browser.browser.newPage({ viewport: { width: 800, height: 600 } });
    const errors = collectPageErrors(page);
    await page.goto(server.url);
    await page.getByRole('heading', { name: 'Hello, A2UI' }).waitFor();
    // The stylesheet is applied: a Card is an outlined, padded box.
    const padding = await page
      .locator('.a2ui-card')
      .evaluate((card) => getComputedStyle(card).paddingTop);
    expect(padding).toBe('16px');

    const greet = page.getByRole('button', { name: 'Greet me' });
    expect(await greet.isDisabled()).toBe(true);
    await page.getByText('Type a name first.').waitFor();
    await page.getByRole('textbox', { name: 'Your name' }).fill('Ada');
    await expect.poll(() => greet.isDisabled()).toBe(false);
    await greet.click();
    await page.locator('strong', { hasText: 'Ada' }).waitFor();
    expect(await page.getByText(/Nice to meet you,/).textContent()).toBe('Nice to meet you, Ada!');
    await page.screenshot({ path: join(artifactsDir('react-quick-start'), 'greeted.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
