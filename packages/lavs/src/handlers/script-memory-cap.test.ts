/** How `maxMemory` reaches a script's command line, and what the audit says where it cannot. */
import { expect, it } from 'vitest';
import { capScriptMemory, hasPrlimit, memoryCapNote } from './script-memory-cap.js';

const MIB = 1024 * 1024;

it('finds prlimit on Linux (util-linux)', async () => {
  expect(await hasPrlimit()).toBe(process.platform === 'linux');
});

it('starts a capped script through prlimit --data, a Node one with its heap capped too', () => {
  expect(
    capScriptMemory('python3', ['x.py'], { maxMemory: 64 * MIB, isNode: false, prlimit: true }),
  ).toEqual({
    command: 'prlimit',
    args: [`--data=${64 * MIB}`, '--', 'python3', 'x.py'],
    enforcement: 'os',
  });
  expect(
    capScriptMemory('node', ['x.mjs'], { maxMemory: 64 * MIB, isNode: true, prlimit: true }).args,
  ).toEqual([`--data=${64 * MIB}`, '--', 'node', '--max-old-space-size=64', 'x.mjs']);
});

it('says in the audit where the cap is advisory or holds the heap only', () => {
  const heapOnly = capScriptMemory('node', ['x.mjs'], {
    maxMemory: 64 * MIB,
    isNode: true,
    prlimit: false,
  });
  expect(heapOnly).toEqual({
    command: 'node',
    args: ['--max-old-space-size=64', 'x.mjs'],
    enforcement: 'heap',
  });
  expect(memoryCapNote(heapOnly)).toMatch(/only the V8 heap/);
  const advisory = capScriptMemory('ruby', ['x.rb'], {
    maxMemory: 64 * MIB,
    isNode: false,
    prlimit: false,
  });
  expect(advisory).toEqual({ command: 'ruby', args: ['x.rb'], enforcement: 'none' });
  expect(memoryCapNote(advisory)).toMatch(/advisory/);
});
