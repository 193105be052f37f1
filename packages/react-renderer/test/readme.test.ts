// @vitest-environment node
/**
 * The README's code compiles as printed: its blocks need a page to run, so they are typechecked
 * with the repository's strict settings from this package's folder. (The quick start also runs in
 * Chromium as `apps/react-quick-start`, whose test checks that it is still this block.)
 */
import { readReadmeBlocks, typecheckReadmeBlocks } from '@a2ui-ts/core/testing/node';
import { expect, it } from 'vitest';

const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));
const cwd = new URL('..', import.meta.url);

it('marks every block that imports a package, so that each one is checked here', () => {
  expect(readme.unmarked).toEqual([]);
});

it('typechecks the quick start, the custom components and MCP Apps as printed', async () => {
  const output = await typecheckReadmeBlocks(
    {
      'main.tsx': readme.block('quick-start'),
      'registry.tsx': readme.block('custom-components'),
      'mcp-apps.tsx': readme.block('mcp-apps'),
      'proxy-route.ts': readme.block('mcp-apps-proxy'),
    },
    { cwd },
  );
  expect(output).toBe('');
});
