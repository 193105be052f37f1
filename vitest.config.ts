import { defineConfig } from 'vitest/config';
import { SOURCE_CONDITIONS } from './vitest.shared.js';

/**
 * One vitest run over every package, app and the repository's own tests (`scripts/`). Tests
 * import workspace packages through the `@a2ui-ts/source` export condition, so they run against
 * `src/` and never wait for a build. Each project's config spreads `vitest.shared.ts`: the same
 * conditions and one timeout policy.
 */
export default defineConfig({
  resolve: { conditions: SOURCE_CONDITIONS },
  test: {
    projects: ['packages/*', 'apps/*', 'scripts'],
  },
});
