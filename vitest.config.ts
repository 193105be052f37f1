import { defineConfig } from 'vitest/config';

/**
 * One vitest run over every package. Tests import workspace packages through the
 * `@a2ui-ts/source` export condition, so they run against `src/` and never wait for a build.
 */
export default defineConfig({
  resolve: { conditions: ['@a2ui-ts/source'] },
  test: {
    projects: ['packages/*', 'apps/*'],
  },
});
