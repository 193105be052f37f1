import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@a2ui-ts/source'] },
  ssr: { resolve: { conditions: ['@a2ui-ts/source'] } },
  test: {
    name: 'react-quick-start',
    environment: 'node',
    // Builds the page with vite and drives Chromium.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
