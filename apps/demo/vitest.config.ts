import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@a2ui-ts/source'] },
  // Node-environment tests resolve through the SSR environment, which keeps its own conditions.
  ssr: { resolve: { conditions: ['@a2ui-ts/source'] } },
  test: {
    name: 'demo',
    environment: 'node',
    globalSetup: ['./src/e2e/build-client.global-setup.ts'],
    // Browser tests share one built client and drive real Chromium; they need more than the default.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
