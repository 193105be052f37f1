import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@a2ui-ts/source'] },
  test: {
    name: 'react-renderer',
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    // The browser suite bundles a gallery and drives Chromium; give it room without slowing the rest.
    testTimeout: 20_000,
    hookTimeout: 120_000,
  },
});
