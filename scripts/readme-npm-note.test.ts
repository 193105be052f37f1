/**
 * The packages are not on npm yet, so a README's `npm install @a2ui-ts/…` fails as printed (404)
 * for a new user unless the lines right after it say so and what to do instead.
 */
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);

/** How many lines after the `npm install` line the note must start within. */
const NOTE_WINDOW = 8;

describe('package READMEs', async () => {
  const packages = await readdir(new URL('packages/', root));
  const readmes: string[] = [];
  for (const name of packages.sort()) {
    const text = await readFile(new URL(`packages/${name}/README.md`, root), 'utf8').catch(
      () => '',
    );
    if (/^npm install .*@a2ui-ts\//m.test(text)) readmes.push(name);
  }

  it('finds READMEs with an npm install line', () => {
    expect(readmes.length).toBeGreaterThan(5);
  });

  it.each(readmes)(
    '%s says right after its npm install that it is not on npm yet',
    async (name) => {
      const lines = (await readFile(new URL(`packages/${name}/README.md`, root), 'utf8')).split(
        '\n',
      );
      const at = lines.findIndex((line) => /^npm install .*@a2ui-ts\//.test(line));
      const after = lines.slice(at, at + NOTE_WINDOW + 1).join('\n');
      expect(after).toMatch(/not (?:published to|on) npm yet/i);
    },
  );
});
