import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { captureCli } from './testing/capture-cli.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const examples = here('../../core/src/testing/fixtures/');
const exampleFiles = ['basic', 'minimal'].flatMap((folder) =>
  readdirSync(`${examples}${folder}`).map((file) => `${examples}${folder}/${file}`),
);

const run = captureCli;

describe('a2ui validate', () => {
  it('accepts every official example stream', async () => {
    const result = await run(['validate', ...exampleFiles]);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  });

  it('prints one spec error per invalid message of a JSONL stream and exits 1', async () => {
    const result = await run(['validate', here('fixtures/mixed.jsonl')]);
    expect(result.code).toBe(1);
    const errors = result.lines.map((line) => JSON.parse(line));
    expect(errors).toEqual([
      {
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/updateComponents/components/0/text',
        message: expect.stringContaining('message 2 (line 2)'),
      },
      // No surface is concerned: surfaceId is left out.
      { code: 'INVALID_JSON', message: expect.stringContaining('mixed.jsonl:3') },
      {
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/version',
        message: expect.stringContaining('message 3 (line 4)'),
      },
    ]);
    expect(result.stderr).toBe('a2ui: 1 source, 4 messages, 3 problems\n');
  });

  it('reads standard input with -', async () => {
    const line = '{"version":"v0.9","createSurface":{"surfaceId":"s"}}';
    const result = await run(['validate', '-'], line);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.lines[0]!)).toMatchObject({
      code: 'VALIDATION_FAILED',
      surfaceId: 's',
    });
  });

  it('reads JSONL on standard input line by line, even with a line that is not JSON', async () => {
    const stdin = await readFile(here('fixtures/mixed.jsonl'), 'utf8');
    const piped = await run(['validate', '-'], stdin);
    const named = await run(['validate', here('fixtures/mixed.jsonl')]);
    expect(piped.lines).toHaveLength(3);
    const messages = (result: { lines: string[] }) =>
      result.lines.map((line) => (JSON.parse(line) as { message: string }).message);
    expect(messages(piped)).toEqual(
      messages(named).map((message) => message.replaceAll(here('fixtures/mixed.jsonl'), 'stdin')),
    );
  });

  it('reports a pretty-printed JSON document with a syntax error once, not line by line', async () => {
    const broken = JSON.stringify(
      { version: 'v0.9', deleteSurface: { surfaceId: 's' } },
      null,
      2,
    ).replace('"s"', '"s",');
    const result = await run(['validate', '-'], broken);
    expect(result.lines).toHaveLength(1);
    expect(JSON.parse(result.lines[0]!)).toMatchObject({ code: 'INVALID_JSON' });
  });

  it('validates against a custom catalog given with --catalog', async () => {
    const catalogId = 'https://example.com/catalogs/charts/v1/catalog.json';
    const stream = [
      { version: 'v0.9', createSurface: { surfaceId: 'c', catalogId } },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 'c',
          components: [{ id: 'root', component: 'Gauge', value: 3 }],
        },
      },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 'c',
          components: [{ id: 'root', component: 'Gauge', value: 'high' }],
        },
      },
    ];
    const input = JSON.stringify(stream);
    const without = await run(['validate', '-'], input);
    expect(JSON.parse(without.lines[0]!)).toMatchObject({ code: 'CATALOG_NOT_FOUND' });
    const withCatalog = await run(
      ['validate', '-', '--catalog', here('fixtures/custom-catalog.json')],
      input,
    );
    expect(withCatalog.lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        surfaceId: 'c',
        path: '/updateComponents/components/0/value',
      }),
    ]);
  });
});

describe('a2ui validate, processing problems', () => {
  it('reports what only applying the stream reveals: unknown surfaces, relative data paths', async () => {
    const stream = [
      {
        version: 'v0.9',
        createSurface: {
          surfaceId: 's',
          catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
        },
      },
      { version: 'v0.9', updateDataModel: { surfaceId: 's', path: 'name', value: 1 } },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 'ghost',
          components: [{ id: 'root', component: 'Text', text: 'x' }],
        },
      },
    ];
    const result = await run(['validate', '-'], JSON.stringify(stream));
    expect(result.code).toBe(1);
    expect(result.lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        code: 'INVALID_PATH',
        message: expect.stringContaining('message 2'),
      }),
      expect.objectContaining({
        code: 'SURFACE_NOT_FOUND',
        surfaceId: 'ghost',
        message: expect.stringContaining('message 3'),
      }),
    ]);
  });
});

describe('a2ui replay', () => {
  it('prints the final state of a stream', async () => {
    const result = await run(['replay', `${examples}basic/09_login-form.json`]);
    expect(result.code).toBe(0);
    const state = JSON.parse(result.stdout);
    expect(state.errors).toEqual([]);
    const [surface] = Object.values(state.surfaces) as Array<Record<string, unknown>>;
    expect(surface).toMatchObject({
      catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
      sendDataModel: expect.any(Boolean),
    });
    expect(Object.keys(surface!.components as object)).toContain('root');
  });

  it('stops after N messages with --at', async () => {
    const file = `${examples}basic/31_incremental-dashboard.json`;
    const total = JSON.parse(readFileSync(file, 'utf8')).messages.length;
    const early = JSON.parse((await run(['replay', file, '--at', '1'])).stdout);
    const late = JSON.parse((await run(['replay', file, '--at', String(total)])).stdout);
    const [earlySurface] = Object.values(early.surfaces) as Array<{ components: object }>;
    const [lateSurface] = Object.values(late.surfaces) as Array<{ components: object }>;
    expect(Object.keys(earlySurface!.components)).toEqual([]);
    expect(Object.keys(lateSurface!.components).length).toBeGreaterThan(1);
  });

  it('lists errors beside the state and keeps going', async () => {
    const state = JSON.parse((await run(['replay', here('fixtures/mixed.jsonl')])).stdout);
    expect(state.surfaces.s.components.root.text).toBe('fine');
    expect(state.errors.map((error: { code: string }) => error.code)).toEqual([
      'VALIDATION_FAILED',
      'INVALID_JSON',
      'VALIDATION_FAILED',
    ]);
  });

  it('rejects a bad --at', async () => {
    const result = await run(['replay', here('fixtures/mixed.jsonl'), '--at', '-2']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--at');
  });
});

describe('a2ui compile-catalog', () => {
  it('emits a standalone ES module without eval', async () => {
    const result = await run(['compile-catalog', here('fixtures/custom-catalog.json')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('export');
    expect(result.stdout).not.toMatch(/new Function|\beval\(/);
  });
});

describe('the a2ui binary', () => {
  it('exits 2 with usage for an unknown command, and 1 for invalid input', () => {
    const bin = here('./bin.ts');
    const node = (args: string[]) =>
      spawnSync(
        process.execPath,
        ['--conditions=@a2ui-ts/source', '--import', 'tsx', bin, ...args],
        { encoding: 'utf8', cwd: here('..') },
      );
    const unknown = node(['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Usage:');
    const invalid = node(['validate', here('fixtures/mixed.jsonl')]);
    expect(invalid.status).toBe(1);
    expect(invalid.stdout.trim().split('\n')).toHaveLength(3);
  });
});

describe('a2ui limits and encodings', () => {
  it('applies the message size limit a client applies', async () => {
    const huge = {
      version: 'v0.9',
      updateDataModel: { surfaceId: 's', path: '/x', value: 'x'.repeat(2 * 1024 * 1024) },
    };
    const result = await run(['validate', '-'], JSON.stringify(huge));
    expect(result.code).toBe(1);
    expect(JSON.parse(result.lines[0]!)).toMatchObject({ code: 'MESSAGE_TOO_LARGE' });
  });

  it('reads a file that starts with a UTF-8 byte order mark', async () => {
    const line = JSON.stringify({
      version: 'v0.9',
      createSurface: {
        surfaceId: 's',
        catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
      },
    });
    const result = await run(['validate', '-'], `\uFEFF${line}`);
    expect(result.code).toBe(0);
  });
});

describe('a2ui on hostile input', () => {
  const catalogId = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';
  const createLine = JSON.stringify({
    version: 'v0.9',
    createSurface: { surfaceId: 's', catalogId },
  });
  const fineLine = JSON.stringify({
    version: 'v0.9',
    updateDataModel: { surfaceId: 's', path: '/fine', value: 1 },
  });
  const badLine = JSON.stringify({
    version: 'v0.9',
    updateComponents: { surfaceId: 's', components: [{ id: 'root', component: 'Text', text: 5 }] },
  });
  const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  const deepLine = `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/deep","value":${deep}}}`;

  it('validate reports a value nested 5,000 deep as a spec error for its line, and goes on', async () => {
    const result = await run(
      ['validate', '-'],
      [createLine, deepLine, fineLine, badLine].join('\n'),
    );
    expect(result.code).toBe(1);
    expect(result.lines.map((line) => JSON.parse(line))).toEqual([
      {
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: expect.stringMatching(/^\/updateDataModel\/value\/0\//),
        message: expect.stringContaining('message 2 (line 2)'),
      },
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        path: '/updateComponents/components/0/text',
        message: expect.stringContaining('message 4 (line 4)'),
      }),
    ]);
    expect(result.stderr).toBe('a2ui: 1 source, 4 messages, 2 problems\n');
  });

  it('replay keeps the state of the other lines, and a deep message in a .json document too', async () => {
    const lines = await run(['replay', '-'], [createLine, deepLine, fineLine].join('\n'));
    const state = JSON.parse(lines.stdout);
    expect(state.surfaces.s.dataModel).toEqual({ fine: 1 });
    expect(state.errors).toMatchObject([{ code: 'VALIDATION_FAILED', surfaceId: 's' }]);
    const document = `[${createLine},${deepLine},${fineLine}]`;
    const replayed = JSON.parse((await run(['replay', '-'], document)).stdout);
    expect(replayed.surfaces.s.dataModel).toEqual({ fine: 1 });
    expect(replayed.errors).toMatchObject([{ code: 'VALIDATION_FAILED', surfaceId: 's' }]);
  });

  it('reports a number beyond double range in a .json document, not a silent null', async () => {
    const document = `[${createLine},{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/n","value":1e999}}]`;
    const result = await run(['validate', '-'], document);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.lines[0]!)).toMatchObject({
      code: 'VALIDATION_FAILED',
      surfaceId: 's',
      path: '/updateDataModel/value',
    });
  });

  it('reports bytes that are not UTF-8 with their byte offset, and reads the other lines', async () => {
    const encoder = new TextEncoder();
    const first = encoder.encode(`${createLine}\n`);
    // A valid JSON line but for one byte: 0xFF can start no UTF-8 sequence.
    const broken = encoder.encode(
      '{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/x","value":"a_b"}}\n',
    );
    broken[broken.indexOf(0x5f)] = 0xff;
    const last = encoder.encode(badLine);
    const input = new Uint8Array([...first, ...broken, ...last]);
    const byteOffset = first.length + broken.indexOf(0xff);
    const result = await run(['validate', '-'], input);
    expect(result.code).toBe(1);
    expect(result.lines.map((line) => JSON.parse(line))).toEqual([
      {
        code: 'INVALID_JSON',
        byteOffset,
        message: expect.stringMatching(new RegExp(`stdin:2: byte ${byteOffset} \\(0xFF\\)`)),
      },
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining('line 3'),
      }),
    ]);
    const document = await run(
      ['validate', '-'],
      new Uint8Array([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x7d]),
    );
    expect(JSON.parse(document.lines[0]!)).toMatchObject({ code: 'INVALID_JSON', byteOffset: 2 });
  });
});
