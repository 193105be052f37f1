import { runCli } from '@a2ui-ts/cli';
import {
  BASIC_CATALOG_ID,
  ComponentBinding,
  migrateMessages,
  V0_9_1_BASIC_CATALOG_ID,
} from '@a2ui-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LISTED_PROBLEMS, MAX_PASTED_STREAM_BYTES } from '../shared/pasted-stream-limits.js';
import { connectTestClient, type TestClient } from '../test-support/connect-test-client.js';
import { loadExampleStreams } from './example-streams.js';
import {
  createGalleryAgent,
  GALLERY_CONTROLS_SURFACE_ID,
  GALLERY_ECHO_SURFACE_ID,
  GALLERY_ERRORS_SURFACE_ID,
  LOAD_STREAM_ACTION,
} from './gallery-agent.js';
import { createManualScheduler } from './scheduler.js';

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const controls = GALLERY_CONTROLS_SURFACE_ID;
const examples = loadExampleStreams();

describe('gallery agent', () => {
  let test: TestClient | undefined;
  afterEach(async () => {
    await test?.close();
    test = undefined;
  });

  async function setup(
    options: Parameters<typeof createGalleryAgent>[0] = {},
    // What the demo's gallery negotiates by default (it serves v0.9 first): its picker starts there.
    offeredVersions: readonly string[] = ['v0.9'],
  ) {
    test = await connectTestClient(
      createGalleryAgent({ scheduler: createManualScheduler(), ...options }),
      { offeredVersions },
    );
    const t = test;
    await t.until(
      () =>
        t.data(controls, '/basic') !== undefined &&
        t.client.processor.getSurface(controls)!.components.has('example-play'),
      'the controls',
    );
    return t;
  }

  const status = (t: TestClient) => String(t.data(controls, '/status'));

  /** Picks `version` in the controls' version picker, as a user would. */
  function pickVersion(t: TestClient, version: string) {
    t.client.processor.getSurface(controls)!.dataModel.set('/version', [version]);
  }

  /** Id of the Play button the items of `catalog`'s list show. */
  function playButton(t: TestClient, catalog: string): string {
    const surface = t.client.processor.getSurface(controls)!;
    const list = surface.components.get(`${catalog}-list`)!.properties.children as {
      componentId: string;
    };
    const row = surface.components.get(list.componentId)!.properties.children as string[];
    return row.find((id) => surface.components.get(id)?.properties.component === 'Button')!;
  }

  async function play(t: TestClient, file: string) {
    const catalog = examples.find((example) => example.file === file)!.catalog;
    const index = (t.data(controls, `/${catalog}`) as Array<{ file: string }>).findIndex(
      (entry) => entry.file === file,
    );
    const scope = `/${catalog}/${index}`;
    expect(await t.client.dispatchAction(controls, playButton(t, catalog), { scope })).toBe(true);
  }

  it('starts its version picker at the version the connection negotiated', async () => {
    for (const [offered, picked] of [
      [['v1.0'], 'v1.0'],
      [['v0.9.1'], 'v0.9'],
      [['v0.8', 'v0.9'], 'v0.9'],
    ] as const) {
      const t = await setup({}, offered);
      expect(t.data(controls, '/version'), offered.join()).toEqual([picked]);
      await t.close();
      test = undefined;
    }
  });
  it('ships every official example and lists them by catalog', async () => {
    expect(examples.map((example) => example.file)).toHaveLength(15);
    const t = await setup();
    expect((t.data(controls, '/basic') as unknown[]).length).toBe(12);
    expect((t.data(controls, '/minimal') as unknown[]).length).toBe(3);
  });

  it.each(examples.map((example) => [example.file, example] as const))(
    'streams %s with no client error',
    async (_file, example) => {
      const t = await setup();
      await play(t, example.file);
      await t.until(
        () => status(t).startsWith(`Finished “${example.name}”`),
        'the end of the stream',
      );
      expect(t.errors).toEqual([]);
      expect(t.surfaceIds().length).toBeGreaterThan(1);
    },
  );

  it('labels the delay slider with its unit, not its value (the slider shows the value beside it)', async () => {
    const t = await setup();
    const slider = t.client.processor.getSurface(controls)!.components.get('delay-slider')!;
    expect(slider.properties).toMatchObject({
      component: 'Slider',
      label: 'Delay between messages (ms)',
    });
  });

  it('offers the versions in a labelled picker, v0.9 picked', async () => {
    const t = await setup();
    const picker = t.client.processor.getSurface(controls)!.components.get('version-picker')!;
    expect(picker.properties).toMatchObject({
      component: 'ChoicePicker',
      label: 'Protocol version',
    });
    expect(t.data(controls, '/version')).toEqual(['v0.9']);
  });

  const basic = examples.filter((example) => example.catalog === 'basic');
  it.each(
    ['v0.8', 'v1.0'].flatMap((version) =>
      basic.map((example) => [example.file, version, example] as const),
    ),
  )('streams %s in %s with no client error', async (_file, version, example) => {
    const t = await setup();
    pickVersion(t, version);
    await play(t, example.file);
    const finished = `Finished “${example.name} (${version})”`;
    await t.until(() => status(t).startsWith(finished), 'the end of the stream');
    expect(t.errors).toEqual([]);
    const created = t.surfaceIds().filter((id) => id !== controls);
    expect(created.length).toBeGreaterThan(0);
    for (const surfaceId of created) {
      expect(t.client.processor.getSurface(surfaceId)!.protocolVersion.family).toBe(version);
    }
  });

  it('deletes the previous example in the version it was streamed in, then streams the next', async () => {
    const t = await setup();
    for (const version of ['v1.0', 'v0.8', 'v0.9']) {
      pickVersion(t, version);
      await play(t, '09_login-form.json');
      await t.until(
        () =>
          status(t).startsWith('Finished “Login Form') &&
          t.client.processor.getSurface('gallery-login-form')?.protocolVersion.family === version,
        `the login form in ${version}`,
      );
      expect(t.surfaceIds()).toEqual([controls, 'gallery-login-form']);
    }
    expect(t.errors).toEqual([]);
  });

  it('offers only the versions its transport carries (AG-UI: v0.9), and plays v0.9 otherwise', async () => {
    const t = await setup({ versions: ['v0.9'] });
    const picker = t.client.processor.getSurface(controls)!.components.get('version-picker')!;
    expect((picker.properties.options as Array<{ value: string }>).map((o) => o.value)).toEqual([
      'v0.9',
    ]);
    pickVersion(t, 'v1.0');
    await play(t, '09_login-form.json');
    await t.until(() => status(t).startsWith('Finished “Login Form'), 'the login form');
    expect(status(t)).not.toContain('(v1.0)');
    expect(t.client.processor.getSurface('gallery-login-form')!.protocolVersion.family).toBe(
      'v0.9',
    );
  });

  /** What the Play button of `/<catalog>/<index>` shows: its checks, evaluated in its item. */
  function playValidation(t: TestClient, catalog: 'basic' | 'minimal', index: number) {
    const record = t.client.processor.getSurface(controls)!.components.get(playButton(t, catalog))!;
    const context = t.client.getDataContext(controls, `/${catalog}/${index}`);
    return new ComponentBinding(record, context).getSnapshot().validation;
  }

  it.each(['v0.8', 'v1.0'])(
    'disables the Play buttons of minimal-catalog examples while %s is picked, and says why',
    async (version) => {
      const t = await setup();
      expect(playValidation(t, 'minimal', 0).isValid).toBe(true);
      pickVersion(t, version);
      const validation = playValidation(t, 'minimal', 0);
      expect(validation.isValid).toBe(false);
      expect(validation.messages).toEqual(['v0.9 only']);
      expect(playValidation(t, 'basic', 0).isValid).toBe(true);
      // The client refuses the action of a disabled button, so nothing reaches the agent.
      const scope = '/minimal/0';
      expect(await t.client.dispatchAction(controls, playButton(t, 'minimal'), { scope })).toBe(
        false,
      );
      pickVersion(t, 'v0.9');
      expect(playValidation(t, 'minimal', 0).isValid).toBe(true);
    },
  );

  it('refuses a minimal-catalog example in another version that reaches it anyway, and says so', async () => {
    const t = await setup();
    await t.client.send({
      version: 'v0.9',
      action: {
        name: 'play',
        surfaceId: controls,
        sourceComponentId: 'minimal-play',
        timestamp: new Date().toISOString(),
        context: { file: '3_interactive_button.json', delayMs: 0, version: ['v1.0'] },
      },
    });
    await t.until(() => status(t).includes('only v0.9 has'), 'the refusal');
    expect(t.surfaceIds()).toEqual([controls]);
  });

  it.each(['v0.8', 'v1.0'] as const)('accepts a pasted %s stream', async (version) => {
    const t = await setup();
    const login = examples.find((example) => example.file === '09_login-form.json')!;
    const { messages } = migrateMessages(login.messages, { to: version });
    await sendStream(t, messages.map((message) => JSON.stringify(message)).join('\n'), 'x.jsonl');
    await t.until(() => status(t).startsWith('Finished “x.jsonl”'), 'the pasted stream');
    expect(t.client.processor.getSurface('gallery-login-form')!.protocolVersion.family).toBe(
      version,
    );
    expect(t.errors).toEqual([]);
  });

  it('accepts a pasted v0.9.1 stream (v0.9 messages under the v0.9.1 envelope and catalog)', async () => {
    const t = await setup();
    const login = examples.find((example) => example.file === '09_login-form.json')!;
    const lines = login.messages.map((message) =>
      JSON.stringify({ ...message, version: 'v0.9.1' }).replaceAll(
        BASIC_CATALOG_ID,
        V0_9_1_BASIC_CATALOG_ID,
      ),
    );
    expect(lines.join('\n')).toContain(V0_9_1_BASIC_CATALOG_ID);
    await sendStream(t, lines.join('\n'), 'x.jsonl');
    await t.until(() => status(t).startsWith('Finished “x.jsonl”'), 'the pasted stream');
    const surface = t.client.processor.getSurface('gallery-login-form')!;
    expect(surface.protocolVersion.envelopeVersions).toEqual(['v0.9.1']);
    expect(t.errors).toEqual([]);
  });

  it('deletes the surfaces of the previous example before the next one', async () => {
    const t = await setup();
    await play(t, '09_login-form.json');
    await t.until(() => status(t).startsWith('Finished “Login Form'), 'the login form');
    expect(t.surfaceIds()).toEqual([controls, 'gallery-login-form']);
    await play(t, '09_login-form.json');
    await t.until(() => status(t).startsWith('Streaming'), 'the replay start');
    await t.until(() => status(t).startsWith('Finished'), 'the replay');
    expect(t.surfaceIds()).toEqual([controls, 'gallery-login-form']);
    expect(t.errors).toEqual([]);
  });

  it('echoes an action from a streamed surface with its resolved context', async () => {
    const t = await setup();
    await play(t, '09_login-form.json');
    await t.until(() => status(t).startsWith('Finished'), 'the login form');
    const surface = t.client.processor.getSurface('gallery-login-form')!;
    const button = [...surface.components.values()].find(
      (component) => component.type === 'Button',
    );
    expect(button).toBeDefined();
    surface.dataModel.set('/email', 'ada@example.com');
    surface.dataModel.set('/password', 'correct horse battery');
    await t.client.dispatchAction('gallery-login-form', button!.id);
    await t.until(() => t.data(GALLERY_ECHO_SURFACE_ID, '/count') === 1, 'the echo');
    expect(t.data(GALLERY_ECHO_SURFACE_ID, '/last/surfaceId')).toBe('gallery-login-form');
    expect(String(t.data(GALLERY_ECHO_SURFACE_ID, '/last/context'))).toContain('```json');
    expect(t.errors).toEqual([]);
  });

  it('streams a valid pasted JSONL stream', async () => {
    const t = await setup();
    const stream = [
      {
        version: 'v0.9',
        createSurface: {
          surfaceId: 'hello',
          catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
        },
      },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 'hello',
          components: [{ id: 'root', component: 'Text', text: { path: '/greeting' } }],
        },
      },
      {
        version: 'v0.9',
        updateDataModel: { surfaceId: 'hello', path: '/greeting', value: 'Hello' },
      },
    ]
      .map((message) => JSON.stringify(message))
      .join('\n');
    await sendStream(t, stream, 'hello.jsonl');
    await t.until(() => t.data('hello', '/greeting') === 'Hello', 'the pasted surface');
    await t.until(() => status(t) === 'Finished “hello.jsonl”: 3 messages.', 'the end');
  });

  it('rejects an invalid pasted stream with every problem, worded as `a2ui validate` words them', async () => {
    const t = await setup();
    const text =
      '{"version":"v0.9","createSurface":{"surfaceId":"x"}}\nnot json\n{"version":"v0.9"}\n{"version":"v0.9","deleteSurface":{}}';
    await sendStream(t, text, '');
    await t.until(() => t.data(GALLERY_ERRORS_SURFACE_ID, '/issues') !== undefined, 'the errors');
    const cli = await validateWithCli(text, 'pasted');
    expect(cli.length).toBeGreaterThanOrEqual(4);
    const issues = t.data(GALLERY_ERRORS_SURFACE_ID, '/issues') as Array<{
      line?: number;
      where: string;
      message: string;
    }>;
    // Every problem, not only the unreadable line, in the CLI's order and words; numbered once,
    // by the line of the text (the CLI's `pasted message 3 (line 3): ` / `pasted:2: ` prefixes go).
    expect(issues.map((issue) => issue.message)).toEqual(
      cli.map((problem) =>
        capitalized(
          problem.message.replace(
            /^((?:Not valid JSON: )?)pasted( message \d+ \(line \d+\)|:\d+)?: /,
            '$1',
          ),
        ),
      ),
    );
    expect(issues.map((issue) => issue.line)).toEqual([1, 2, 3, 4]);
    expect(issues[0]!.where).toBe('Line 1 · VALIDATION_FAILED at /createSurface/catalogId');
    expect(issues[1]!.where).toBe('Line 2 · INVALID_JSON');
    expect(issues.every((issue) => !/\bmessage \d|pasted/.test(issue.message))).toBe(true);
    expect(t.data(GALLERY_ERRORS_SURFACE_ID, '/title')).toBe(
      `“Pasted stream” has ${cli.length} problems; nothing was streamed.`,
    );

    // A pretty-printed document: each message by the line it starts on, and its index; an unknown
    // component is not said to be "rendered as a fallback" when nothing is rendered.
    const document = JSON.stringify(
      [
        { version: 'v0.9', createSurface: { surfaceId: 'x', catalogId: BASIC_CATALOG_ID } },
        {
          version: 'v0.9',
          updateComponents: { surfaceId: 'x', components: [{ id: 'root', component: 'Blink' }] },
        },
        { version: 'v0.9', deleteSurface: {} },
      ],
      null,
      2,
    );
    await sendStream(t, document, 'bad.json');
    await t.until(
      () => String(t.data(GALLERY_ERRORS_SURFACE_ID, '/title')).startsWith('“bad.json”'),
      'the second report',
    );
    const second = t.data(GALLERY_ERRORS_SURFACE_ID, '/issues') as Array<{
      line?: number;
      where: string;
      message: string;
    }>;
    const lines = document.split('\n');
    const lineOf = (fragment: string) => lines.findIndex((line) => line.includes(fragment)) + 1;
    expect(second.map((issue) => issue.line)).toEqual([
      lineOf('"updateComponents"') - 2,
      lineOf('"deleteSurface"') - 2,
    ]);
    expect(second[0]!.where).toMatch(/^Line \d+ \(message 2\) · /);
    expect(second[0]!.message).toContain('Unknown component type "Blink"');
    expect(second.map((issue) => issue.message).join(' ')).not.toContain('fallback');
    expect(t.surfaceIds()).toEqual([controls, GALLERY_ERRORS_SURFACE_ID]);
    expect(t.errors).toEqual([]);
  });

  it('60,000 bad lines: says how many, lists the first ones, and the client applies all of it', async () => {
    const t = await setup();
    const text = Array.from({ length: 60_000 }, (_, index) => `x${index % 10}`).join('\n');
    await sendStream(t, text, 'huge.jsonl');
    await t.until(
      () => String(t.data(GALLERY_ERRORS_SURFACE_ID, '/title')).startsWith('“huge.jsonl”'),
      'the report',
    );
    expect(t.data(GALLERY_ERRORS_SURFACE_ID, '/title')).toBe(
      `“huge.jsonl” has 60,000 problems; nothing was streamed. The first ${MAX_LISTED_PROBLEMS} are listed; \`pnpm --silent a2ui validate <file>\` lists them all.`,
    );
    expect(t.data(GALLERY_ERRORS_SURFACE_ID, '/issues')).toHaveLength(MAX_LISTED_PROBLEMS);
    await t.until(() => status(t) === 'Rejected “huge.jsonl”: 60,000 problems.', 'the status');
    expect(t.errors).toEqual([]);
  });

  it('says when a stream is too large instead of reading it', async () => {
    const t = await setup();
    const text = `[${'{"version":"v0.9"},'.repeat(MAX_PASTED_STREAM_BYTES / 16)}{}]`;
    await sendStream(t, text, 'big.json');
    await t.until(
      () => String(t.data(GALLERY_ERRORS_SURFACE_ID, '/title')).startsWith('“big.json”'),
      'the report',
    );
    expect(t.data(GALLERY_ERRORS_SURFACE_ID, '/title')).toMatch(
      /^“big\.json” is 608 KB; the gallery takes streams up to 512 KB\. /,
    );
    expect(t.data(GALLERY_ERRORS_SURFACE_ID, '/issues')).toEqual([]);
    expect(t.errors).toEqual([]);
  });
});

/** The problems `a2ui validate -` prints for `text` (the source named `name`, not "stdin"). */
async function validateWithCli(text: string, name: string): Promise<Array<{ message: string }>> {
  let out = '';
  await runCli(['validate', '-'], {
    stdout: (chunk) => {
      out += chunk;
    },
    stderr: () => {},
    readStdin: async () => text,
  });
  return out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { message: string })
    .map((problem) => ({ message: problem.message.replaceAll('stdin', name) }));
}

async function sendStream(t: TestClient, text: string, fileName: string) {
  await t.client.send({
    version: 'v0.9',
    action: {
      name: LOAD_STREAM_ACTION,
      surfaceId: GALLERY_CONTROLS_SURFACE_ID,
      sourceComponentId: 'stream-upload',
      timestamp: new Date().toISOString(),
      context: { text, fileName },
    },
  });
}
