/**
 * The READMEs name every transport the pickers offer: a new user reads "six transports" and then
 * meets a seventh (MCP) in the picker, so the count and the demo README's table follow
 * `CLIENT_TRANSPORTS`.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLIENT_TRANSPORTS } from './client/client-transports.js';

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
];

const read = (path: string) => readFile(new URL(path, import.meta.url), 'utf8');

describe('README transports', () => {
  const count = NUMBER_WORDS[CLIENT_TRANSPORTS.length];

  it('the demo README table lists every transport id, in picker order', async () => {
    const readme = await read('../README.md');
    const table = readme.slice(readme.indexOf('| Transport '));
    const ids = [...table.matchAll(/^\| [^|]+\| `([a-z0-9-]+)` \|/gm)].map((match) => match[1]);
    expect(ids).toEqual(CLIENT_TRANSPORTS.map((transport) => transport.id));
  });

  it('no README counts the transports wrong', async () => {
    for (const path of ['../README.md', '../../../README.md']) {
      const text = await read(path);
      const counts = [...text.matchAll(/\b(\w+) (?:real )?transports\b/g)]
        .map((match) => match[1] ?? '')
        .filter((word) => NUMBER_WORDS.includes(word));
      expect(counts, path).not.toEqual([]);
      for (const word of counts) expect(word, path).toBe(count);
    }
  });
});
