/**
 * Function handlers in worker threads: terminated past maxExecutionTime, stopped past maxMemory,
 * files only through `context.files` as fileAccess allows.
 */
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeService, type StartedService, startService } from '../../test/service-fixture.js';

const fn = (id: string, name: string, permissions?: Record<string, unknown>) => ({
  id,
  method: 'mutation',
  handler: { type: 'function', module: 'handlers.mjs', function: name },
  ...(permissions ? { permissions } : {}),
});

let service: StartedService;
beforeAll(async () => {
  const dir = await makeService(
    {
      lavs: '1.0',
      name: 'functions',
      version: '1.0.0',
      endpoints: [
        fn('read', 'read'),
        fn('write', 'write'),
        fn('swallow', 'swallow'),
        fn('spin', 'spin', { maxExecutionTime: 300 }),
        fn('hog', 'hog', { maxMemory: 16 * 1_048_576 }),
        fn('fail', 'fail'),
        fn('missing', 'noSuchExport'),
        fn('noFiles', 'read', { fileAccess: [] }),
      ],
      permissions: {
        fileAccess: ['./data/**/*.json', '!./data/secrets.json'],
        maxExecutionTime: 60_000,
      },
    },
    {
      'handlers.mjs': `
        export const read = ({ path }, { files }) => files.readFile(path);
        export async function write({ path, text }, { files }) {
          await files.writeFile(path, text);
          return { written: true };
        }
        // Catching the refusal does not turn it into a success.
        export async function swallow({ path }, { files }) {
          try { return await files.readFile(path); } catch { return 'nothing to see'; }
        }
        export function spin() { for (;;) {} }
        export function hog() { const keep = []; for (;;) keep.push(new Array(1e5).fill(Math.random())); }
        export function fail() { console.error('connecting to the database'); throw new Error('database password is hunter2'); }
      `,
      'data/todos.json': '[1,2]',
      'data/secrets.json': '{"key":"s3cret"}',
      'notes.txt': 'not json',
    },
  );
  await symlink('/etc/passwd', join(dir, 'data/passwd.json'));
  service = await startService(dir);
});
afterAll(() => service.close());

it('reads and writes the files fileAccess allows', async () => {
  expect((await service.call('read', { path: './data/todos.json' })).result).toBe('[1,2]');
  expect((await service.call('write', { path: 'data/new/list.json', text: '[]' })).result).toEqual({
    written: true,
  });
  expect(await readFile(join(service.dir, 'data/new/list.json'), 'utf8')).toBe('[]');
});

it('refuses a file a "!" pattern denies, naming fileAccess', async () => {
  expect((await service.call('read', { path: 'data/secrets.json' })).error).toEqual({
    code: -32001,
    message:
      'Permission denied: fileAccess does not allow "data/secrets.json": denied by a "!" pattern',
    data: { permission: 'fileAccess', path: 'data/secrets.json' },
  });
});

it('refuses a file no pattern allows, and any file without fileAccess', async () => {
  expect((await service.call('read', { path: 'notes.txt' })).error).toMatchObject({
    code: -32001,
    data: { permission: 'fileAccess', path: 'notes.txt' },
  });
  expect((await service.call('noFiles', { path: 'data/todos.json' })).error).toMatchObject({
    code: -32001,
    data: { permission: 'fileAccess' },
  });
});

it('refuses path traversal, absolute paths and links out of the service', async () => {
  for (const path of ['data/../../../../etc/passwd.json', '/etc/passwd', 'data/passwd.json']) {
    const { error } = await service.call('read', { path });
    expect(error).toMatchObject({ code: -32001, data: { permission: 'fileAccess', path } });
    expect(JSON.stringify(error)).not.toContain('root:');
  }
  const write = await service.call('write', { path: '../escaped.json', text: 'x' });
  expect(write.error).toMatchObject({ code: -32001 });
  await expect(readFile(join(service.dir, '../escaped.json'))).rejects.toThrow();
});

it('ends the call with -32001 even when the handler catches the refusal', async () => {
  expect((await service.call('swallow', { path: 'data/secrets.json' })).error).toMatchObject({
    code: -32001,
    data: { permission: 'fileAccess' },
  });
});

it('terminates a function past maxExecutionTime with -32002, and keeps serving', async () => {
  expect((await service.call('spin')).error).toEqual({
    code: -32002,
    message: 'Timeout: spin ran past 300 ms and was stopped',
    data: { permission: 'maxExecutionTime', timeoutMs: 300 },
  });
  expect((await service.call('read', { path: 'data/todos.json' })).result).toBe('[1,2]');
});

it('stops a function past maxMemory with -32001 naming maxMemory', async () => {
  expect((await service.call('hog')).error).toEqual({
    code: -32001,
    message: 'Permission denied: hog used more than maxMemory',
    data: { permission: 'maxMemory', maxMemory: 16 * 1_048_576 },
  });
});

it('answers -32003 for a thrown error without its text, which goes to the log with its console output', async () => {
  expect((await service.call('fail')).error).toEqual({
    code: -32003,
    message: 'Handler error: the function threw',
  });
  expect(service.audit.at(-1)).toMatchObject({
    endpoint: 'fail',
    detail: 'database password is hunter2\nconnecting to the database\n',
  });
  expect((await service.call('missing')).error).toMatchObject({ code: -32003 });
});

it('keeps the data of a refused call intact', async () => {
  await writeFile(join(service.dir, 'data/todos.json'), '[1,2]');
  await service.call('write', { path: 'data/secrets.json', text: 'overwritten' });
  expect(await readFile(join(service.dir, 'data/secrets.json'), 'utf8')).toBe('{"key":"s3cret"}');
});
