import { defineProject } from 'vitest/config';
import { sourceResolution, testTimeouts } from '../vitest.shared.js';

/** Tests of the repository as a whole: its test policy, its root README, its packed packages. */
export default defineProject({
  ...sourceResolution,
  test: { name: 'repo', environment: 'node', ...testTimeouts },
});
