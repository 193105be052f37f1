import { defineProject } from 'vitest/config';
import { sourceResolution, testTimeouts } from '../../vitest.shared.js';

export default defineProject({
  ...sourceResolution,
  test: {
    name: 'demo',
    environment: 'node',
    globalSetup: ['./src/e2e/build-client.global-setup.ts'],
    ...testTimeouts,
  },
});
