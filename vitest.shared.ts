/**
 * What every vitest project of the repository shares (each `vitest.config.ts` spreads it): the
 * `@a2ui-ts/source` condition, so tests run against `src/` and never wait for a build, and one
 * timeout policy.
 *
 * Why one generous timeout: on a loaded two-core machine a browser launch, a Vite build, a `tsc`
 * run over a README block (it checks the renderer's and core's sources too) or a thousand-client
 * load test takes minutes, not seconds (a README typecheck took 4.5 min beside seven other
 * suites), and a test that times out takes the rest of its file down with it. A timeout here
 * only catches a hang; how fast something runs is for the benchmarks (`pnpm bench`), never for a
 * test.
 */

/** The one timeout of every test, hook and `expect.poll`, in milliseconds. */
export const TEST_TIMEOUT_MS = 600_000;

/** The export condition that resolves workspace packages to their TypeScript sources. */
export const SOURCE_CONDITIONS = ['@a2ui-ts/source'];

/** Spread into a project's `test` options: the timeout policy. */
export const testTimeouts = {
  testTimeout: TEST_TIMEOUT_MS,
  hookTimeout: TEST_TIMEOUT_MS,
  teardownTimeout: TEST_TIMEOUT_MS,
  expect: { poll: { timeout: TEST_TIMEOUT_MS } },
};

/**
 * Spread into a project's config: resolution through the source condition, for the client
 * environment and for Vite's SSR environment (which node tests use, and which keeps its own
 * conditions).
 */
export const sourceResolution = {
  resolve: { conditions: SOURCE_CONDITIONS },
  ssr: { resolve: { conditions: SOURCE_CONDITIONS } },
};
