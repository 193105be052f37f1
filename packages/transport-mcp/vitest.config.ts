import { defineProject } from 'vitest/config';
import { sourceResolution, testTimeouts } from '../../vitest.shared.js';

export default defineProject({
  ...sourceResolution,
  test: { name: 'transport-mcp', environment: 'node', ...testTimeouts },
});
