/** The README's quick start runs as printed, from this package's folder, and exits 0. */
import { readReadmeBlocks, runReadmeBlock } from '@a2ui-ts/core/testing/node';
import { expect, it } from 'vitest';

const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));

it('marks every block that imports a package, so that each one runs here', () => {
  expect(readme.unmarked).toEqual([]);
});

it('runs the client quick start to its end: it prints the greeting and what the agent got', async () => {
  const result = await runReadmeBlock(readme.block('quick-start'), {
    cwd: new URL('..', import.meta.url),
    fileName: 'quick-start.mts',
  });
  expect(result).toMatchObject({ exitCode: 0, stderr: '' });
  expect(result.stdout).toBe("Hello Ada\ngreet { name: 'Ada' }\n");
});
