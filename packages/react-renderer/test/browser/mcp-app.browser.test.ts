// @vitest-environment node
/**
 * MCP Apps in A2UI, in real Chromium: a hostile app tries the host page's DOM, cookies and
 * storage, the other surface, top navigation, the network, tools it was not allowed and forged
 * messages to every frame — all fail and the other app is undisturbed; a friendly app's score
 * reaches a sibling Text through the data model and the agent through an action.
 */
import { type LaunchedBrowser, launchChromium } from '@a2ui-ts/test-browser';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIE_FACE,
  type McpAppSuiteServer,
  startMcpAppSuiteServer,
} from './mcp-app/mcp-app-suite-server.js';

let launched: LaunchedBrowser;
let server: McpAppSuiteServer;

interface Opened {
  context: BrowserContext;
  page: Page;
  pageErrors: string[];
  popups: number;
  offsite: string[];
}

async function open(path = '/'): Promise<Opened> {
  const context = await launched.browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const opened: Opened = { context, page, pageErrors: [], popups: 0, offsite: [] };
  context.on('page', () => {
    opened.popups++;
  });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    opened.offsite.push(url.href);
    return route.abort();
  });
  page.on('pageerror', (error) => opened.pageErrors.push(String(error)));
  await page.goto(`${server.url}${path}`);
  await page.waitForFunction(() => window.__mcpApps?.ready === true);
  return opened;
}

/** The inner (app) frame whose document has `selector`. */
async function appFrame(page: Page, selector: string): Promise<Frame> {
  for (;;) {
    for (const frame of page.frames()) {
      if (frame.parentFrame()?.parentFrame() !== page.mainFrame()) continue;
      if (await frame.$(selector).catch(() => null)) return frame;
    }
    await page.waitForTimeout(50);
  }
}

function dataAt(page: Page, surfaceId: string, path: string): Promise<unknown> {
  return page.evaluate(
    ({ surfaceId, path }) =>
      window.__mcpApps.client.processor.getSurface(surfaceId)?.dataModel.get(path),
    { surfaceId, path },
  );
}

beforeAll(async () => {
  [launched, server] = await Promise.all([launchChromium(), startMcpAppSuiteServer()]);
});

afterAll(async () => {
  await launched?.close();
  await server?.close();
});

describe('McpApp in Chromium', () => {
  it('isolates each app: proxy same-origin, inner frame sandboxed without allow-same-origin', async () => {
    const { page, context } = await open();
    const dice = await appFrame(page, '#roll');
    const frames = await page.$$eval('iframe.a2ui-mcp-app-frame:not([hidden])', (elements) =>
      (elements as HTMLIFrameElement[]).map((frame) => ({
        sandbox: frame.getAttribute('sandbox'),
        origin: frame.contentWindow?.location.origin,
        inner: frame.contentDocument?.querySelector('iframe')?.getAttribute('sandbox'),
      })),
    );
    expect(frames).toHaveLength(2);
    for (const frame of frames) {
      expect(frame.sandbox).toBeNull();
      expect(frame.origin).toBe(server.url);
      expect(frame.inner).toBe('allow-scripts allow-forms allow-popups allow-modals');
    }
    expect(await dice.evaluate(() => window.origin)).toBe('null');
    await context.close();
  });

  it('keeps a hostile app inside its sandbox and leaves everything else as it was', async () => {
    const { page, context, pageErrors, popups, offsite } = await open();
    await page.waitForFunction(
      () =>
        window.__mcpApps.client.processor.getSurface('hostile')?.dataModel.get('/report/done') ===
        true,
    );
    const probes = (await dataAt(page, 'hostile', '/report/probes')) as Record<string, string>;
    expect(probes).toEqual({
      parentDocument: 'blocked',
      topDocument: 'blocked',
      topCookie: 'blocked',
      topLocalStorage: 'blocked',
      cookie: 'blocked',
      localStorage: 'blocked',
      sessionStorage: 'blocked',
      proxyDocuments: 'blocked',
      otherAppDocuments: 'blocked',
      topNavigation: 'blocked',
      parentNavigation: 'blocked',
      fetch: 'blocked',
      image: 'blocked',
      disallowedTool: 'refused -32602',
      otherAppsTool: 'refused -32602',
      message: 'refused',
    });
    const refusals = await page.evaluate(() => window.__mcpApps.refusals);
    expect(refusals).toEqual([
      { request: 'tools/call', subject: 'delete_everything', componentId: 'app' },
      { request: 'tools/call', subject: 'roll_dice', componentId: 'app' },
      { request: 'ui/message', subject: 'user', componentId: 'app' },
    ]);

    // The forged calls and model context never ran: the friendly app still starts from zero.
    const dice = await appFrame(page, '#roll');
    await dice.click('#roll:not([disabled])');
    await page.getByText(`Score: ${DIE_FACE}`, { exact: true }).waitFor();
    expect(server.toolCalls).toEqual(['roll_dice']);
    expect(await dataAt(page, 'game', '/game/score')).toBe(DIE_FACE);
    // The forged host messages reached neither proxy nor app: one app per proxy, nothing heard.
    expect(await dice.evaluate(() => (window as unknown as { __heard: string[] }).__heard)).toEqual(
      [],
    );
    for (const frame of page.frames()) expect(await frame.$('#pwned')).toBeNull();

    // The host page: same URL, DOM, cookie and storage; no popup, nothing off-site, no /exfiltrate.
    expect(await page.locator('iframe.a2ui-mcp-app-frame:not([hidden])').count()).toBe(2);
    expect(page.url()).toBe(`${server.url}/`);
    expect(await page.textContent('#host-marker')).toBe('Host page');
    expect(await page.evaluate(() => localStorage.getItem('host-secret'))).toBe('local-secret');
    expect(await page.evaluate(() => document.cookie)).toBe('host-secret=cookie-secret');
    expect(popups).toBe(0);
    expect(offsite).toEqual([]);
    expect(server.paths.filter((path) => path.startsWith('/exfiltrate'))).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('renders McpApp surfaces of both catalog versions under a CSP without unsafe-eval', async () => {
    const { page, context, pageErrors } = await open('/csp');
    // Both dice apps run: the v0.9 surface's and the v1.0 surface's.
    await page.waitForFunction(
      () => document.querySelectorAll('iframe.a2ui-mcp-app-frame:not([hidden])').length === 3,
    );
    const v1 = await page.evaluate(() => {
      const surface = window.__mcpApps.client.processor.getSurface('v1-game');
      return { version: surface?.protocolVersion.name, app: surface?.components.get('dice')?.type };
    });
    expect(v1).toEqual({ version: 'v1.0', app: 'McpApp' });
    expect(await page.getByTitle('Dice game (v1.0)').count()).toBe(1);
    // Only the app the server does not have (`broken`) fails, as on the page without a CSP.
    const errors = await page.evaluate(() =>
      (window.__mcpApps.errors as { surfaceId?: string }[]).map((error) => error.surfaceId),
    );
    expect(errors).toEqual(['broken']);
    // The one eval the page tries is zod's feature probe (`allowsEval`, in the MCP SDK), which
    // catches the refusal; no validator compiles at run time.
    const evals = await page.evaluate(async () => {
      const bundle = (await (await fetch('/page.js')).text()).split('\n');
      return window.__mcpApps.violations.map((violation) => {
        const line = Number(violation.split(' ').at(-1)?.split(':')[0]);
        const probe = bundle.slice(Math.max(0, line - 8), line).join('\n');
        return `${violation.split(' ')[0]} ${probe.includes('allowsEval') ? 'zod probe' : probe}`;
      });
    });
    expect(evals.filter((violation) => !violation.endsWith(' zod probe'))).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('replaces an app that cannot load by a note, and tells the agent once', async () => {
    const { page, context } = await open();
    const broken = page.locator('[data-a2ui-id="root"].a2ui-mcp-app').filter({
      has: page.locator('iframe[title="Missing app"]'),
    });
    await broken
      .getByRole('alert')
      .filter({ hasText: 'The MCP App could not be loaded.' })
      .waitFor();
    expect(await broken.locator('iframe').isHidden()).toBe(true);
    const reported = await page.evaluate(() => window.__mcpApps.errors);
    expect(reported).toEqual([
      expect.objectContaining({ code: 'MCP_APP_UNAVAILABLE', surfaceId: 'broken' }),
    ]);
    await context.close();
  });

  it("maps a friendly app's score to a sibling Text and an action to the agent", async () => {
    const { page, context } = await open();
    server.toolCalls.length = 0;
    const dice = await appFrame(page, '#roll');
    await dice.click('#roll:not([disabled])');
    await page.getByText(`Score: ${DIE_FACE}`, { exact: true }).waitFor();
    await dice.click('#roll');
    await page.getByText(`Score: ${2 * DIE_FACE}`, { exact: true }).waitFor();
    expect(server.toolCalls).toEqual(['roll_dice', 'roll_dice']);
    const actions = await page.evaluate(() =>
      window.__mcpApps.sent.flatMap((message) =>
        'action' in message
          ? [(message as { action: { name: string; context: unknown } }).action]
          : [],
      ),
    );
    expect(actions.map(({ name, context }) => ({ name, context }))).toEqual([
      { name: 'scored', context: { score: DIE_FACE } },
      { name: 'scored', context: { score: 2 * DIE_FACE } },
    ]);
    await context.close();
  });
});
