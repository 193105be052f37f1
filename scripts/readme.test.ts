/**
 * The root README runs as printed: its script imports the packages from any folder of the
 * repository (the root, a folder without a package, a package that does not depend on core's
 * dependents), and its React page typechecks (it needs a browser to run; `apps/react-quick-start`
 * runs the same code in Chromium).
 */
import {
  readReadmeBlocks,
  runReadmeBlock,
  typecheckReadmeBlocks,
} from '@a2ui-ts/core/testing/node';
import { expect, it } from 'vitest';

const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));

it('marks every block that imports a package, so that each one runs here', () => {
  expect(readme.unmarked).toEqual([]);
});

it.each(['.', 'docs', 'packages/transport-ws'])(
  'runs the script from %s of the repository',
  async (folder) => {
    const result = await runReadmeBlock(readme.block('hello'), {
      cwd: new URL(`../${folder}/`, import.meta.url),
      fileName: 'hello.mts',
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'v0.9 Hello Ada\n' });
  },
);

it('typechecks the React page', async () => {
  const output = await typecheckReadmeBlocks(
    { 'main.tsx': readme.block('react-page') },
    // Where React and its types are installed; the a2ui-ts packages resolve from the root.
    { cwd: new URL('../packages/react-renderer/', import.meta.url) },
  );
  expect(output).toBe('');
});
