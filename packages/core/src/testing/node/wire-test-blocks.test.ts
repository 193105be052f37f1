import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readWireTestBlocks } from './wire-test-blocks.js';

const dir = mkdtempSync(join(tmpdir(), 'wire-blocks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = pathToFileURL(join(dir, 'wire.md'));
writeFileSync(
  file,
  [
    '# Wire',
    '',
    '## One',
    '',
    '<!-- wire-test: first -->',
    '```json',
    '{"a":1}',
    '```',
    '',
    '<!-- wire-test: second -->',
    '```',
    'line 1',
    'line 2',
    '```',
    '',
    '## Two',
    '',
    '<!-- wire-test: other -->',
    '```',
    'not in One',
    '```',
    '',
  ].join('\n'),
);

describe('readWireTestBlocks', () => {
  it('reads the marked blocks of one section, as written', () => {
    const wire = readWireTestBlocks(file, 'One');
    expect(wire.names).toEqual(['first', 'second']);
    expect(wire.block('first')).toBe('{"a":1}\n');
    expect(wire.block('second')).toBe('line 1\nline 2\n');
  });

  it('names the document and what it lacks', () => {
    expect(() => readWireTestBlocks(file, 'One').block('other')).toThrow(
      /wire\.md has no wire-test block "other"/,
    );
    expect(() => readWireTestBlocks(file, 'Three')).toThrow(/wire\.md has no section "## Three"/);
  });
});
