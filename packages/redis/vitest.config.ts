import { defineProject } from 'vitest/config';

const conditions = ['@a2ui-ts/source'];

export default defineProject({
  resolve: { conditions },
  // Vitest runs node tests in Vite's SSR environment, which reads its own conditions.
  ssr: { resolve: { conditions } },
  test: {
    name: 'redis',
    environment: 'node',
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
