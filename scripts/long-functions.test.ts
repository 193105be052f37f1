/**
 * Issue 24: "no closure over 150 lines". The packages whose links were split into small
 * modules stay that way: no function of their non-test source — a closure included — is longer
 * than 150 lines: A2A, and AG-UI's client and server alike.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findLongFunctions, longFunctionsOfSource } from './long-functions.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The trees held to the limit. */
const HELD = ['packages/transport-a2a/src', 'packages/agui-adapter/src'];

/** A function of `lines` lines: its first line, `lines - 2` statements, its last line. */
const body = (lines: number) =>
  Array.from({ length: lines - 2 }, (_, index) => `  const v${index} = ${index};`).join('\n');

describe('long-functions', () => {
  it('measures closures nested in functions, arrow functions and methods, first line to last', () => {
    const source = [
      'export function outer() {',
      `  const inner = () => {\n${body(151)}\n  };`,
      '  return inner;',
      '}',
      `class Link {\n  method() {\n${body(150)}\n  }\n}`,
    ].join('\n');
    const found = longFunctionsOfSource(source, 'sample.ts', 150);
    expect(found.map(({ name, lines }) => ({ name, lines }))).toEqual([
      { name: 'outer', lines: 154 },
      { name: 'inner', lines: 151 },
    ]);
    expect(longFunctionsOfSource(source, 'sample.ts', 154)).toEqual([]);
  });

  it('names a callback by the call it is passed to', () => {
    const source = `run(() => {\n${body(10)}\n});`;
    expect(longFunctionsOfSource(source, 'sample.ts', 5)).toEqual([
      { file: 'sample.ts', line: 1, lines: 10, name: '<argument of run>' },
    ]);
  });
});

describe('no function over 150 lines (issue 24)', () => {
  it.each(HELD)('in %s (non-test source)', (dir) => {
    expect(findLongFunctions([join(root, dir)], { maxLines: 150, root })).toEqual([]);
  });
});
