import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@a2ui-ts/source'] },
  test: { name: 'cli', environment: 'node' },
});
