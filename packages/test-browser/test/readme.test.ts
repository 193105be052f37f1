/**
 * The README's example runs as printed, from this package's folder, in Chromium. (`@a2ui-ts/core`
 * resolves through the repository root's dependencies: core depends on this package.)
 */
import { readReadmeBlocks, runReadmeBlock } from '@a2ui-ts/core/testing/node';
import { expect, it } from 'vitest';

const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));

it('marks every block that imports a package, so that each one runs here', () => {
  expect(readme.unmarked).toEqual([]);
});

it('runs the example: an accessible page, checked with axe in Chromium', async () => {
  const result = await runReadmeBlock(readme.block('check-page'), {
    cwd: new URL('..', import.meta.url),
    fileName: 'check-page.mts',
  });
  expect(result).toMatchObject({ exitCode: 0, stdout: 'no violations\n' });
});
