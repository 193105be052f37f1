import { defineProject } from 'vitest/config';
import { SOURCE_CONDITIONS, testTimeouts } from '../../vitest.shared.js';

export default defineProject({
  resolve: { conditions: SOURCE_CONDITIONS },
  test: {
    name: 'react-renderer',
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    ...testTimeouts,
  },
});
