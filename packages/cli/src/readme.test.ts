/**
 * The README's in-repository commands run as printed, from the repository root: the replay prints
 * the first message's state, and the validation finds nothing and exits 0.
 */
import { readReadmeBlocks, runReadmeBlock } from '@a2ui-ts/core/testing/node';
import { expect, it } from 'vitest';

const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));

it('runs the in-repository commands from the root', async () => {
  const result = await runReadmeBlock(readme.block('in-repository'), {
    cwd: new URL('../../..', import.meta.url),
    fileName: 'cli-in-repository.sh',
  });
  expect(result.exitCode).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual({
    surfaces: {
      'gallery-login-form': {
        catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
        sendDataModel: true,
        components: {},
        dataModel: {},
      },
    },
    errors: [],
  });
});
