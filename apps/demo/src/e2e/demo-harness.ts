/**
 * Browser-test harness: the demo server on a free port with the client built by the global setup,
 * a recording logger, injectable agents and faults, and real Chromium.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { withNegotiatedVersions } from '@a2ui-ts/core';
import {
  artifactsDir,
  collectPageErrors,
  type LaunchedBrowser,
  launchChromium,
} from '@a2ui-ts/test-browser';
import type { Hono } from 'hono';
import type { Locator, Page } from 'playwright-core';
import { inject } from 'vitest';
import { type DemoAgent, V09_FIRST_VERSIONS } from '../agents/demo-agent.js';
import { createGalleryAgent, type GalleryAgentOptions } from '../agents/gallery-agent.js';
import { createRestaurantAgent } from '../agents/restaurant-agent.js';
import { createManualScheduler, type Scheduler } from '../agents/scheduler.js';
import { type DemoServer, startDemoServer } from '../server/start-demo-server.js';

/** One structured log line the server wrote. */
export interface LogRecord {
  event: string;
  [field: string]: unknown;
}

/** A running server + browser. */
export interface DemoHarness {
  server: DemoServer;
  browser: LaunchedBrowser;
  logs: LogRecord[];
  /** A fresh page (with console errors collected) at `path`. */
  open(
    path: string,
    viewport?: { width: number; height: number },
    options?: OpenOptions,
  ): Promise<OpenedPage>;
  /** Saves a screenshot to `artifacts/demo/<name>.png`. */
  screenshot(target: Page | Locator, name: string): Promise<void>;
  close(): Promise<void>;
}

/** How {@link DemoHarness.open} sets up the page. */
export interface OpenOptions {
  /** `prefers-color-scheme` of the page (the demo starts in that theme). @default 'light' */
  colorScheme?: 'light' | 'dark';
}

/** A page and what went wrong in it. */
export interface OpenedPage {
  page: Page;
  /** Uncaught exceptions and `console.error` lines of the page. */
  pageErrors: string[];
}

/** Options of {@link startHarness}. */
export interface HarnessOptions {
  agents: readonly DemoAgent[];
  /** Agents the config lists as not available. @default none */
  unavailableAgents?: Array<{ id: string; label: string; description: string }>;
  /** Installs middleware before any route (fault injection). */
  configure?: (app: Hono) => void;
}

const ARTIFACTS = artifactsDir('demo');

/**
 * The restaurant booking agent as the browser tests list it (id `restaurant`), its timers on
 * `scheduler` (a manual one, never advanced, by default).
 */
export function restaurantTestAgent(scheduler: Scheduler = createManualScheduler()): DemoAgent {
  return {
    id: 'restaurant',
    label: 'Restaurant booking',
    description: 'Booking flow.',
    // As the demo serves it: written in v0.9, preferring it, converted for a v1.0-only client.
    agent: withNegotiatedVersions(createRestaurantAgent({ scheduler })),
    a2uiVersions: V09_FIRST_VERSIONS,
  };
}

/**
 * The example gallery as the browser tests list it, served v0.9 first as the demo serves it (so
 * its version picker starts at v0.9 on every transport).
 *
 * @param options - the gallery's options @default streaming without delay (`defaultDelayMs: 0`)
 * @param id - the agent's id in the page's `?agent=` @default "gallery"
 */
export function galleryTestAgent(
  options: GalleryAgentOptions = { defaultDelayMs: 0 },
  id = 'gallery',
): DemoAgent {
  return {
    id,
    label: 'Example gallery',
    description: 'Every example.',
    agent: createGalleryAgent(options),
    a2uiVersions: V09_FIRST_VERSIONS,
  };
}

/** Starts the server on port 0 and launches Chromium. */
export async function startHarness(options: HarnessOptions): Promise<DemoHarness> {
  const logs: LogRecord[] = [];
  const server = await startDemoServer({
    port: 0,
    clientDir: inject('demoClientDir'),
    agents: options.agents,
    unavailableAgents: options.unavailableAgents,
    configure: options.configure,
    logger: (event, fields) => logs.push({ event, ...fields }),
  });
  const browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    server,
    browser,
    logs,
    async open(path, viewport = { width: 1280, height: 900 }, openOptions = {}) {
      const page = await browser.browser.newPage({
        viewport,
        colorScheme: openOptions.colorScheme ?? 'light',
      });
      const pageErrors = collectPageErrors(page);
      await page.goto(`${server.url}${path}`);
      return { page, pageErrors };
    },
    async screenshot(target, name) {
      await target.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** Reads the inspector's counters: messages received, sent, and entries with errors. */
export async function inspectorCounts(
  page: Page,
): Promise<{ received: number; sent: number; errors: number }> {
  const read = async (id: string) => Number(await page.getByTestId(id).textContent());
  return {
    received: await read('received-count'),
    sent: await read('sent-count'),
    errors: await read('error-count'),
  };
}
