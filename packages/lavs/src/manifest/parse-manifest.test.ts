import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LavsError } from '../errors/lavs-error.js';
import type { LavsManifest } from './manifest-types.js';
import { loadManifest, parseManifest, safeParseManifest } from './parse-manifest.js';

const TODO = new URL('../../examples/todo-manager/lavs.json', import.meta.url).pathname;

function minimal(): LavsManifest {
  return {
    lavs: '1.0',
    name: 'notes',
    version: '1.0.0',
    endpoints: [
      { id: 'getNotes', method: 'query', handler: { type: 'script', command: 'cat', args: ['n'] } },
    ],
  };
}

function errorsOf(value: unknown) {
  const result = safeParseManifest(value, { baseDir: '/srv/notes' });
  if (result.success) throw new Error('expected the manifest to be refused');
  return result.errors;
}

describe('loadManifest', () => {
  it('loads the todo-manager manifest with its endpoints and effective permissions', async () => {
    const loaded = await loadManifest(TODO);
    expect([...loaded.endpoints.keys()]).toEqual([
      'listTodos',
      'addTodo',
      'toggleTodo',
      'deleteTodo',
      'todoUpdates',
    ]);
    expect(loaded.baseDir).toBe(new URL('../../examples/todo-manager', import.meta.url).pathname);
    expect(loaded.endpoints.get('listTodos')?.permissions.maxExecutionTime).toBe(30000);
  });

  it('resolves $ref into types and fills defaults into the input', async () => {
    const loaded = await loadManifest(TODO);
    const add = loaded.endpoints.get('addTodo')!;
    const input: Record<string, unknown> = { text: 'Buy milk' };
    expect(add.checkInput(input)).toEqual([]);
    expect(input).toEqual({ text: 'Buy milk', priority: 0 });
    expect(add.checkOutput({ id: 1, text: 'x' })).toEqual([
      { pointer: '/done', message: "must have required property 'done'" },
    ]);
    expect(add.checkOutput({ id: 1, text: 'x', done: false, createdAt: 'yesterday' })).toEqual([
      { pointer: '/createdAt', message: 'must match format "date-time"' },
    ]);
  });

  it('refuses a file that is not JSON, saying where', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lavs-manifest-'));
    const path = join(dir, 'lavs.json');
    await writeFile(path, '{ "lavs": "1.0", ');
    const error = await loadManifest(path).catch((e: unknown) => e);
    expect(LavsError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_MANIFEST' });
    expect((error as LavsError).data?.errors).toEqual([
      { pointer: '', message: expect.stringMatching(/^is not valid JSON/) },
    ]);
  });

  it('refuses a missing file', async () => {
    await expect(loadManifest('/nonexistent/lavs.json')).rejects.toMatchObject({
      code: 'INVALID_MANIFEST',
    });
  });
});

describe('parseManifest', () => {
  it('accepts the minimal manifest', () => {
    expect(parseManifest(minimal(), { baseDir: '/srv/notes' }).manifest.name).toBe('notes');
  });

  it('reports every missing top-level field with its pointer', () => {
    expect(errorsOf({ lavs: '1.0' })).toEqual([
      { pointer: '/name', message: "must have required property 'name'" },
      { pointer: '/version', message: "must have required property 'version'" },
      { pointer: '/endpoints', message: "must have required property 'endpoints'" },
    ]);
  });

  it('names what a handler lacks, by its type', () => {
    const manifest = minimal() as unknown as { endpoints: Array<Record<string, unknown>> };
    manifest.endpoints[0]!.handler = { type: 'script' };
    expect(errorsOf(manifest)).toEqual([
      { pointer: '/endpoints/0/handler/command', message: "must have required property 'command'" },
    ]);
    manifest.endpoints[0]!.handler = { type: 'function', module: 'x.mjs' };
    expect(errorsOf(manifest)).toEqual([
      {
        pointer: '/endpoints/0/handler/function',
        message: "must have required property 'function'",
      },
    ]);
  });

  it('refuses an unknown handler type, method, input mode and protocol version', () => {
    const manifest = minimal() as unknown as Record<string, unknown> & {
      endpoints: Array<Record<string, unknown>>;
    };
    manifest.lavs = '2.0';
    manifest.endpoints[0]!.method = 'delete';
    manifest.endpoints.push({ id: 'b', method: 'query', handler: { type: 'grpc' } });
    manifest.endpoints.push({
      id: 'c',
      method: 'query',
      handler: { type: 'script', command: 'x', input: 'file' },
    });
    const pointers = errorsOf(manifest).map((issue) => issue.pointer);
    expect(pointers).toEqual([
      '/lavs',
      '/endpoints/0/method',
      '/endpoints/1/handler/type',
      '/endpoints/2/handler/input',
    ]);
  });

  it('refuses duplicate endpoint ids', () => {
    const manifest = minimal();
    manifest.endpoints.push({ ...manifest.endpoints[0]! });
    expect(errorsOf(manifest)).toEqual([
      { pointer: '/endpoints/1/id', message: 'duplicates endpoint id "getNotes"' },
    ]);
  });

  it('refuses a $ref to a type the manifest does not define', () => {
    const manifest = minimal();
    manifest.endpoints[0]!.schema = { output: { $ref: '#/types/Note' } };
    const [issue, ...rest] = errorsOf(manifest);
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({ pointer: '/endpoints/0/schema/output' });
    expect(issue!.message).toMatch(
      /^is not a valid schema: can't resolve reference #\/types\/Note/,
    );
  });

  it('refuses an endpoint schema that is not a JSON Schema', () => {
    const manifest = minimal();
    manifest.endpoints[0]!.schema = { input: { type: 'text' } };
    expect(errorsOf(manifest)).toEqual([
      {
        pointer: '/endpoints/0/schema/input',
        message: expect.stringMatching(/^is not a valid schema/),
      },
    ]);
  });

  it('refuses paths that leave the service directory', () => {
    const manifest = minimal();
    manifest.permissions = { fileAccess: ['data/*.json', '!../etc/passwd', '/etc/*'] };
    manifest.endpoints.push(
      {
        id: 'f',
        method: 'query',
        handler: { type: 'function', module: '../x.mjs', function: 'f' },
      },
      { id: 's', method: 'query', handler: { type: 'script', command: '../bin/x', cwd: '/tmp' } },
      {
        id: 'm',
        method: 'query',
        handler: { type: 'mcp', server: { command: './../mcp.mjs', cwd: '..' }, tool: 't' },
      },
    );
    expect(errorsOf(manifest).map((issue) => issue.pointer)).toEqual([
      '/permissions/fileAccess/1',
      '/permissions/fileAccess/2',
      '/endpoints/1/handler/module',
      '/endpoints/2/handler/cwd',
      '/endpoints/2/handler/command',
      '/endpoints/3/handler/server/cwd',
      '/endpoints/3/handler/server/command',
    ]);
  });

  it('takes an mcp server as a URL or a stdio command, nothing else', () => {
    const manifest = minimal();
    manifest.endpoints.push(
      { id: 'h', method: 'query', handler: { type: 'mcp', server: 'http://x/mcp', tool: 't' } },
      {
        id: 's',
        method: 'query',
        handler: { type: 'mcp', server: { command: 'node', args: ['mcp.mjs'] }, tool: 't' },
      },
    );
    expect(safeParseManifest(manifest, { baseDir: '/srv/notes' }).success).toBe(true);
    manifest.endpoints.push({
      id: 'bad',
      method: 'query',
      handler: { type: 'mcp', server: { args: ['x'] }, tool: 't' },
    } as never);
    expect(errorsOf(manifest).map((issue) => issue.pointer)).toContain(
      '/endpoints/3/handler/server',
    );
  });

  it('throws INVALID_MANIFEST with the pointers in data.errors and the message', () => {
    let thrown: unknown;
    try {
      parseManifest({ ...minimal(), endpoints: [] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      code: 'INVALID_MANIFEST',
      message: 'Invalid lavs.json: /endpoints must NOT have fewer than 1 items',
      data: { errors: [{ pointer: '/endpoints', message: 'must NOT have fewer than 1 items' }] },
    });
  });
});
