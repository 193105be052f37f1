import { afterEach, describe, expect, it } from 'vitest';
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

const controls = GALLERY_CONTROLS_SURFACE_ID;
const examples = loadExampleStreams();

describe('gallery agent', () => {
  let test: TestClient | undefined;
  afterEach(async () => {
    await test?.close();
    test = undefined;
  });

  async function setup() {
    test = await connectTestClient(createGalleryAgent({ scheduler: createManualScheduler() }));
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

  async function play(t: TestClient, file: string) {
    const catalog = examples.find((example) => example.file === file)!.catalog;
    const index = (t.data(controls, `/${catalog}`) as Array<{ file: string }>).findIndex(
      (entry) => entry.file === file,
    );
    expect(
      await t.client.dispatchAction(controls, 'example-play', { scope: `/${catalog}/${index}` }),
    ).toBe(true);
  }

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

  it('rejects an invalid pasted stream with every problem and streams nothing', async () => {
    const t = await setup();
    await sendStream(
      t,
      '{"version":"v0.9","createSurface":{"surfaceId":"x"}}\nnot json\n{"version":"v0.9"}',
      '',
    );
    await t.until(() => t.data(GALLERY_ERRORS_SURFACE_ID, '/issues') !== undefined, 'the errors');
    expect(t.data(GALLERY_ERRORS_SURFACE_ID, '/issues')).toEqual([
      { where: 'Line 2 · whole message', message: expect.stringContaining('Line 2') },
    ]);

    await sendStream(
      t,
      JSON.stringify([
        { version: 'v0.9', createSurface: { surfaceId: 'x' } },
        { version: 'v0.9', deleteSurface: {} },
      ]),
      'bad.json',
    );
    await t.until(
      () => String(t.data(GALLERY_ERRORS_SURFACE_ID, '/title')).startsWith('“bad.json”'),
      'the second report',
    );
    const issues = t.data(GALLERY_ERRORS_SURFACE_ID, '/issues') as Array<{ where: string }>;
    expect(issues.map((issue) => issue.where)).toEqual([
      'Message 1 · at /createSurface/catalogId',
      'Message 2 · at /deleteSurface/surfaceId',
    ]);
    expect(t.surfaceIds()).toEqual([controls, GALLERY_ERRORS_SURFACE_ID]);
    expect(t.errors).toEqual([]);
  });
});

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
