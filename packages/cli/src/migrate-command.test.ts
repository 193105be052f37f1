import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { captureCli } from './testing/capture-cli.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const v08Profile = here('fixtures/v08-profile.jsonl');
const loginForm = here('../../core/src/testing/fixtures/basic/09_login-form.json');
const modal = here('../../core/src/testing/fixtures/basic/36_modal.json');

const run = captureCli;

describe('a2ui migrate', () => {
  it('converts a v0.8 JSONL stream to v0.9 JSONL, surface first, and exits 0 when nothing is lost', async () => {
    const result = await run(['migrate', '--to', 'v0.9', v08Profile]);
    expect(result.code).toBe(0);
    const messages = result.lines.map((line) => JSON.parse(line));
    expect(messages.map((message) => Object.keys(message).join(','))).toEqual([
      'version,createSurface',
      'version,updateComponents',
      'version,updateComponents',
      'version,updateDataModel',
    ]);
    expect(messages[0].createSurface.theme).toEqual({ primaryColor: '#3366ff' });
    expect(result.stderr).toBe('a2ui: migrated to v0.9; 0 things could not be expressed\n');
  });

  it('writes a v1.0 stream in the drafted @ spelling to v0.9 in v0.9 spelling', async () => {
    const stream = [
      {
        version: '1.0',
        createSurface: {
          surfaceId: 's',
          catalogId: 'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json',
        },
      },
      {
        version: '1.0',
        updateComponents: {
          surfaceId: 's',
          components: [
            { id: 'root', component: 'Column', children: ['hi', 'go'] },
            {
              id: 'hi',
              component: 'Text',
              text: { '@call': 'formatString', args: { value: 'Hi ${/name}' } },
              '@accessibility': { label: { '@path': '/name' } },
            },
            {
              id: 'go',
              component: 'Button',
              child: 'hi',
              action: { event: { name: 'go', context: { '@@at': { '@path': '/name' } } } },
            },
          ],
        },
      },
    ];
    const result = await run(
      ['migrate', '--to', 'v0.9', '-'],
      stream.map((message) => JSON.stringify(message)).join('\n'),
    );
    expect(result.stderr).toBe('a2ui: migrated to v0.9; 0 things could not be expressed\n');
    expect(result.code).toBe(0);
    const [, update] = result.lines.map((line) => JSON.parse(line));
    expect(update.updateComponents.components.slice(1)).toEqual([
      {
        id: 'hi',
        component: 'Text',
        text: { call: 'formatString', args: { value: 'Hi ${/name}' } },
        accessibility: { label: { path: '/name' } },
      },
      {
        id: 'go',
        component: 'Button',
        child: 'hi',
        action: { event: { name: 'go', context: { '@at': { path: '/name' } } } },
      },
    ]);
  });

  it('keeps a JSON sample file a sample file, reports each loss on stderr and exits 1', async () => {
    const result = await run(['migrate', '--to', 'v0.8', loginForm]);
    expect(result.code).toBe(1);
    const sample = JSON.parse(result.stdout);
    expect(sample.name).toBe('Login Form with Validation');
    expect(Object.keys(sample.messages[0])).toEqual(['beginRendering']);
    const problems = result.stderr.trim().split('\n');
    expect(problems).toContain(
      `a2ui: ${loginForm} message 1 at /createSurface/sendDataModel: sendDataModel has no v0.8 equivalent (v0.8 never sends the data model)`,
    );
    expect(problems.at(-1)).toBe('a2ui: migrated to v0.8; 4 things could not be expressed');
  });

  it('goes v0.8 → v1.0 and back through v0.9 to the same v0.9 stream', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'a2ui-migrate-'));
    const v10 = join(directory, 'profile.v10.jsonl');
    const up = await run(['migrate', '--to', 'v1.0', v08Profile, '--out', v10]);
    expect(up.stdout).toBe('');
    // The v0.8 stream's styles (v0.9 theme) have no v1.0 form: reported, exit 1. Its h2 heading
    // becomes a Markdown `## ` line (v1.0's way) and comes back as the h2 variant.
    expect(up.code).toBe(1);
    expect(up.stderr).toContain('v1.0 createSurface has no theme');
    expect(up.stderr).not.toContain('Text variant "h2"');
    expect(JSON.stringify(readFileSync(v10, 'utf8'))).toContain('## ');
    const lines = readFileSync(v10, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.every((message) => message.version === 'v1.0')).toBe(true);
    const down = await run(['migrate', '--to', 'v0.9', v10]);
    expect(down.code).toBe(0);
    const direct = await run(['migrate', '--to', 'v0.9', v08Profile]);
    const withoutLosses = direct.lines.map((line) =>
      line.replace(',"theme":{"primaryColor":"#3366ff"}', ''),
    );
    expect(down.lines).toEqual(withoutLosses);
  });

  it('reads standard input and refuses an unknown target version', async () => {
    const line = '{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}';
    const result = await run(['migrate', '--to', 'v0.8', '-'], `${line}\n`);
    // Standard input is read as a JSON document when it parses as one.
    expect(JSON.parse(result.stdout)).toEqual({ deleteSurface: { surfaceId: 's' } });
    expect(result.code).toBe(0);
    const bad = await run(['migrate', '--to', 'v2', modal]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--to must be one of v0.8, v0.9, v1.0, got "v2"');
    expect((await run(['migrate', modal])).code).toBe(2);
  });

  it('reports a message nested 5,000 deep as validate does, drops it and migrates the rest', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const stream = [
      '{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/fine","value":1}}',
      `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/deep","value":${deep}}}`,
      '{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}',
    ];
    for (const to of ['v0.8', 'v0.9', 'v1.0']) {
      const result = await run(['migrate', '--to', to, '-'], stream.join('\n'));
      expect(result.code).toBe(1);
      expect(result.lines).toHaveLength(2);
      expect(result.stderr).toMatch(
        /^a2ui: stdin message 2 \(line 2\) at \/updateDataModel\/value(\/0)+: Value is nested more than 64 levels deep/m,
      );
      // A .json document holding it: the same report, no RangeError.
      const document = await run(['migrate', '--to', to, '-'], `[${stream.join(',')}]`);
      expect(document.code).toBe(1);
      expect(document.stderr).toContain('message 2 at /updateDataModel/value/0');
      expect(document.stderr).not.toContain('RangeError');
    }
  });

  it('writes nothing (stdout or --out) when a one-message document loses its message, and exits 1', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const message = `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/deep","value":${deep}}}`;
    const directory = mkdtempSync(join(tmpdir(), 'a2ui-migrate-'));
    const out = join(directory, 'kept.json');
    writeFileSync(out, 'untouched\n');
    for (const to of ['v0.8', 'v0.9', 'v1.0']) {
      const result = await run(['migrate', '--to', to, '-'], message);
      expect(result.code).toBe(1);
      // Not `[]`: an array would change the container the input had (one object).
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('stdin message 1 at /updateDataModel/value/0');
      expect(result.stderr.trim().split('\n').at(-1)).toBe(
        `a2ui: migrated to ${to}; 1 thing could not be expressed; nothing written: no message of the input is left`,
      );
      const toFile = await run(['migrate', '--to', to, '-', '--out', out], message);
      expect(toFile.code).toBe(1);
      expect(readFileSync(out, 'utf8')).toBe('untouched\n');
    }
    // A document that is not JSON at all has no container to keep either.
    const broken = await run(['migrate', '--to', 'v0.9', '-'], '{"version":"v0.9",');
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe('');
    expect(broken.stderr).toContain('not migrated');
    // An array that loses every message is still an array.
    const array = await run(['migrate', '--to', 'v0.9', '-'], `[${message}]`);
    expect(array.code).toBe(1);
    expect(JSON.parse(array.stdout)).toEqual([]);
  });
});

describe('a2ui validate and replay, any version', () => {
  it('accepts the official examples migrated to v0.8 and v1.0', async () => {
    const fixtures = here('../../core/src/testing/fixtures/');
    const files = ['v0_8/basic', 'v1_0/basic'].flatMap((folder) =>
      readdirSync(`${fixtures}${folder}`)
        .filter((file) => /^\d/.test(file))
        .map((file) => `${fixtures}${folder}/${file}`),
    );
    expect(files).toHaveLength(24);
    const result = await run(['validate', ...files]);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  });

  it('validates a v0.8 stream (detected from its keys) and replays it to the v0.9 state', async () => {
    expect((await run(['validate', v08Profile])).code).toBe(0);
    const replay = await run(['replay', v08Profile]);
    const state = JSON.parse(replay.stdout);
    expect(state.errors).toEqual([]);
    expect(state.surfaces.profile.dataModel).toEqual({ user: { name: 'Ada' } });
    expect(state.surfaces.profile.components.greet).toEqual({
      id: 'greet',
      component: 'Button',
      child: 'label',
      variant: 'primary',
      action: { event: { name: 'greet', context: { who: { path: '/user/name' } } } },
    });
  });

  it('reports v0.8 schema errors with a v0.8 path', async () => {
    const stream = [
      '{"beginRendering":{"surfaceId":"s","root":"root"}}',
      '{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"root","component":{"Text":{"text":"plain"}}}]}}',
    ].join('\n');
    const result = await run(['validate', '-'], stream);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.lines[0]!)).toMatchObject({
      code: 'VALIDATION_FAILED',
      path: '/surfaceUpdate/components/0/component/Text/text',
    });
  });

  it('--version reads unlabelled messages as that version and refuses other versions', async () => {
    const unlabelled =
      '{"createSurface":{"surfaceId":"s","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}';
    expect((await run(['validate', '-'], unlabelled)).code).toBe(1);
    expect((await run(['validate', '--version', 'v0.9', '-'], unlabelled)).code).toBe(0);
    const forced = await run([
      'validate',
      '--version',
      'v0.8',
      v08Profile.replace('v08-profile.jsonl', 'mixed.jsonl'),
    ]);
    expect(forced.code).toBe(1);
    expect(forced.lines[0]).toContain('the message is v0.9, but --version is v0.8; not applied.');
    expect((await run(['replay', '--version', 'v3', v08Profile])).code).toBe(2);
  });
});
