/**
 * Hostile input found while attacking wave 1 (issue 13): each case gets a clear error, bounded
 * cost, and the state before it intact.
 */
import { describe, expect, it } from 'vitest';
import { ComponentBinding } from '../binding/component-binding.js';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { createRecordingTransport } from '../client/test-recording-transport.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { validateClientDataModel, validateClientMessage } from '../validation/validate-messages.js';
import { DEFAULT_DATA_MODEL_LIMITS } from './data-model.js';
import { MessageProcessor } from './message-processor.js';

const create = (surfaceId: string, sendDataModel = false) => ({
  version: 'v0.9',
  createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID, sendDataModel },
});
const setData = (surfaceId: string, path: string, value?: unknown) => ({
  version: 'v0.9',
  updateDataModel: { surfaceId, path, ...(value === undefined ? {} : { value }) },
});
const pathOf = (segments: number) =>
  `/${Array.from({ length: segments }, (_, i) => `k${i}`).join('/')}`;

/** A root Button whose event action carries `context`. */
const goButton = (context: Record<string, unknown>) => ({
  version: 'v0.9',
  updateComponents: {
    surfaceId: 's',
    components: [
      { id: 'root', component: 'Button', child: 't', action: { event: { name: 'go', context } } },
      { id: 't', component: 'Text', text: 'Go' },
    ],
  },
});

describe('a data-model path deeper than the depth limit', () => {
  const { maxDepth } = DEFAULT_DATA_MODEL_LIMITS;

  it.each([maxDepth + 1, 500, 3_000, 100_000])(
    'of %i segments is refused with LIMIT_EXCEEDED and changes nothing',
    (segments) => {
      const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
      processor.process([create('s'), setData('s', '/kept', 1)]);
      const before = processor.getSurface('s')!.dataModel.getSnapshot();
      const { errors } = processor.process(JSON.stringify(setData('s', pathOf(segments), 1)));
      expect(errors).toEqual([
        {
          code: 'LIMIT_EXCEEDED',
          surfaceId: 's',
          path: pathOf(maxDepth + 1),
          message: expect.stringContaining(`${maxDepth}`),
        },
      ]);
      expect(processor.getSurface('s')!.dataModel.getSnapshot()).toBe(before);
    },
  );

  it(`of exactly ${maxDepth} segments is applied`, () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    const { errors } = processor.process([create('s'), setData('s', pathOf(maxDepth), 'deep')]);
    expect(errors).toEqual([]);
    expect(processor.getSurface('s')!.dataModel.get(pathOf(maxDepth))).toBe('deep');
  });

  it('deleting at such a path is refused the same way', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    processor.process(create('s'));
    expect(processor.process(setData('s', pathOf(maxDepth + 1))).errors).toMatchObject([
      { code: 'LIMIT_EXCEEDED', path: pathOf(maxDepth + 1) },
    ]);
  });

  it('never recurses per segment: a raised limit takes a 20,000-segment path', () => {
    const processor = new MessageProcessor({
      catalogs: createDefaultCatalogs(),
      limits: { maxDepth: 200_000, maxMessageBytes: 10_000_000 },
    });
    processor.process(create('s'));
    expect(processor.process(setData('s', pathOf(20_000), 1)).errors).toEqual([]);
    expect(processor.getSurface('s')!.dataModel.get(pathOf(20_000))).toBe(1);
    expect(processor.process(setData('s', pathOf(20_000), 2)).errors).toEqual([]);
    expect(processor.process(setData('s', pathOf(20_000))).errors).toEqual([]);
    expect(processor.getSurface('s')!.dataModel.get(pathOf(20_000))).toBeUndefined();
  });
});

describe('the client never sends what its server will refuse', () => {
  it('a data model filled to the depth limit passes the server metadata check', async () => {
    const transport = createRecordingTransport();
    const client = new A2uiClient({ transport });
    const { maxDepth } = DEFAULT_DATA_MODEL_LIMITS;
    const deepest = pathOf(maxDepth);
    // The deepest the messages allow: the path to the limit, and an object value at its end.
    const { errors } = client.process([
      create('s', true),
      setData('s', pathOf(maxDepth - 1), {}),
      setData('s', deepest, 'x'),
      goButton({ all: { path: '/' } }),
    ]);
    expect(errors).toEqual([]);
    expect(await client.dispatchAction('s', 'root')).toBe(true);
    const [{ message, metadata }] = transport.sent as [(typeof transport.sent)[number]];
    // What the SSE + JSON-RPC server checks on every a2ui.action request.
    expect(validateClientMessage(message)).toEqual([]);
    expect(validateClientDataModel(metadata.a2uiClientDataModel)).toEqual([]);
  });

  it('an action context nested deeper than the server accepts is refused, not sent', async () => {
    const transport = createRecordingTransport();
    const client = new A2uiClient({ transport });
    const { maxDepth } = DEFAULT_DATA_MODEL_LIMITS;
    client.process([
      create('s'),
      setData('s', pathOf(maxDepth), 'x'),
      // Literal arrays around a binding of the whole (64-deep) model.
      goButton({ wrap: [[{ path: '/' }]] }),
    ]);
    await expect(client.dispatchAction('s', 'root')).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      surfaceId: 's',
      path: expect.stringMatching(/^\/action\/context\/wrap\/0\/0\//),
    });
    expect(transport.sent).toEqual([]);
  });
});

describe('a number literal beyond double range', () => {
  const line = (json: string) =>
    `{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/n","value":${json}}}`;

  it.each([
    ['1e999', '/updateDataModel/value'],
    ['-1e999', '/updateDataModel/value'],
    ['{"a":[1,2,1e999]}', '/updateDataModel/value/a/2'],
  ])(
    '%s in a data-model value is VALIDATION_FAILED at its pointer, nothing stored',
    (json, path) => {
      const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
      processor.process([create('s'), setData('s', '/n', 1)]);
      const { errors } = processor.process(line(json));
      expect(errors).toEqual([
        {
          code: 'VALIDATION_FAILED',
          surfaceId: 's',
          path,
          message: expect.stringContaining('finite'),
        },
      ]);
      expect(processor.getSurface('s')!.dataModel.get('/n')).toBe(1);
    },
  );

  it.each([
    ['a bigint', { a: [1, 10n] }, '/updateDataModel/value/a/1'],
    ['a function', { f: () => 1 }, '/updateDataModel/value/f'],
    ['a symbol', Symbol('s'), '/updateDataModel/value'],
  ])(
    '%s handed over in-process is VALIDATION_FAILED at its pointer, nothing stored, state still serializable',
    (_kind, value, path) => {
      const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
      processor.process([create('s'), setData('s', '/n', 1)]);
      const { errors } = processor.process(setData('s', '/x', value));
      expect(errors).toEqual([
        {
          code: 'VALIDATION_FAILED',
          surfaceId: 's',
          path,
          message: expect.stringContaining('JSON'),
        },
      ]);
      expect(processor.getSurface('s')!.dataModel.getSnapshot()).toEqual({ n: 1 });
      expect(() =>
        JSON.stringify(processor.getSurface('s')!.dataModel.getSnapshot()),
      ).not.toThrow();
    },
  );

  it('in a component property rejects that updateComponents at the property', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    processor.process(create('s'));
    const { errors } = processor.process(
      '{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Slider","value":{"path":"/v"},"max":1e999}]}}',
    );
    expect(errors).toMatchObject([
      { code: 'VALIDATION_FAILED', surfaceId: 's', path: '/updateComponents/components/0/max' },
    ]);
    expect(processor.getSurface('s')!.components.size).toBe(0);
  });

  it('never reaches the data model even without validation, nor from in-process writes', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs(), validate: false });
    processor.process(create('s'));
    expect(processor.process(line('[1e999]')).errors).toMatchObject([
      { code: 'VALIDATION_FAILED', surfaceId: 's', path: '/updateDataModel/value/0' },
    ]);
    const model = processor.getSurface('s')!.dataModel;
    expect(() => model.set('/x', Number.NaN)).toThrowError(
      expect.objectContaining({ code: 'DATA_ERROR', path: '/x' }),
    );
    expect(model.getSnapshot()).toEqual({});
  });

  it('is refused by the client-message and metadata validators too', () => {
    const action = {
      version: 'v0.9',
      action: {
        name: 'go',
        surfaceId: 's',
        sourceComponentId: 'b',
        timestamp: '2026-01-15T12:00:00Z',
        context: { n: Number.POSITIVE_INFINITY },
      },
    };
    expect(validateClientMessage(action)).toMatchObject([{ path: '/action/context/n' }]);
    expect(
      validateClientDataModel({ version: 'v0.9', surfaces: { s: { n: Number.NaN } } }),
    ).toMatchObject([{ path: '/surfaces/s/n' }]);
  });
});

describe('an error about no surface', () => {
  it.each([
    ['not JSON', 'not json', 'INVALID_JSON'],
    ['too large', `"${'x'.repeat(100)}"`, 'MESSAGE_TOO_LARGE'],
    ['not an object', '42', 'VALIDATION_FAILED'],
    ['without a message type', '{"version":"v0.9"}', 'VALIDATION_FAILED'],
  ])('(%s) leaves surfaceId out', (_, input, code) => {
    const processor = new MessageProcessor({ limits: { maxMessageBytes: 50 } });
    const { errors } = processor.process(input);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe(code);
    expect(errors[0]).not.toHaveProperty('surfaceId');
  });

  it('still reaches the agent in the form the schema requires', async () => {
    const transport = createRecordingTransport();
    const client = new A2uiClient({ transport });
    void client.connect();
    client.process('{oops');
    await client.until(() => transport.sent.length === 1);
    const { message } = transport.sent[0]!;
    expect(message).toMatchObject({ error: { code: 'INVALID_JSON', surfaceId: '' } });
    expect(validateClientMessage(message)).toEqual([]);
    await client.close();
  });
});

describe('a call of a function the catalog does not define', () => {
  const components = [
    {
      id: 'root',
      component: 'Column',
      children: ['share', 'email', 'note'],
    },
    {
      id: 'share',
      component: 'Button',
      child: 'label',
      action: { functionCall: { call: 'shareSheet', args: { url: 'https://example.com' } } },
    },
    { id: 'label', component: 'Text', text: 'Share' },
    {
      id: 'email',
      component: 'TextField',
      label: 'Email',
      value: { path: '/email' },
      checks: [
        { condition: { call: 'isCorporateEmail', args: {} }, message: 'Use your work email' },
      ],
    },
    { id: 'note', component: 'Text', text: { call: 'translate', args: {} } },
  ];
  const update = {
    version: 'v0.9',
    updateComponents: { surfaceId: 's', components },
  };

  it('applies the message and reports VALIDATION_FAILED once per function, at its pointer', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    processor.process(create('s'));
    const first = processor.process(update);
    expect(first.applied).toBe(1);
    expect(first.errors).toEqual([
      {
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/updateComponents/components/1/action/functionCall/call',
        message: expect.stringContaining('"shareSheet"'),
      },
      {
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/updateComponents/components/3/checks/0/condition/call',
        message: expect.stringContaining('"isCorporateEmail"'),
      },
      {
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/updateComponents/components/4/text/call',
        message: expect.stringContaining('"translate"'),
      },
    ]);
    expect([...processor.getSurface('s')!.components.values()].map((record) => record.id)).toEqual([
      'root',
      'share',
      'label',
      'email',
      'note',
    ]);
    expect(processor.process(update).errors).toEqual([]);
  });

  it('still rejects a component that is wrong in another way too', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    processor.process(create('s'));
    const { applied, errors } = processor.process({
      version: 'v0.9',
      updateComponents: {
        surfaceId: 's',
        components: [
          { id: 'root', component: 'Button', child: 5, action: { functionCall: { call: 'nope' } } },
        ],
      },
    });
    expect(applied).toBe(0);
    expect(errors).toMatchObject([
      { code: 'VALIDATION_FAILED', path: '/updateComponents/components/0/child' },
    ]);
    expect(processor.getSurface('s')!.components.size).toBe(0);
  });

  it('makes the button inert with a reason, and invoking it a clear error reported to the agent', async () => {
    const transport = createRecordingTransport();
    const client = new A2uiClient({ transport });
    void client.connect();
    client.process([create('s'), update]);
    const surface = client.processor.getSurface('s')!;
    const binding = new ComponentBinding(
      surface.components.get('share')!,
      client.getDataContext('s'),
    );
    expect(binding.getSnapshot().validation).toMatchObject({
      isValid: false,
      messages: ['This action is not available (unknown function "shareSheet").'],
    });
    await expect(
      client.dispatchAction('s', 'share', {
        dataContext: binding.context,
        validation: binding.getSnapshot().validation,
      }),
    ).rejects.toMatchObject({
      code: 'EXPRESSION_ERROR',
      message: expect.stringContaining('shareSheet'),
    });
    await expect(client.dispatchAction('s', 'share')).rejects.toMatchObject({
      code: 'EXPRESSION_ERROR',
    });
    const sent = transport.sent.map(({ message }) => message);
    expect(sent.filter((message) => 'action' in message)).toEqual([]);
    const reported = sent.flatMap((message) => ('error' in message ? [message.error] : []));
    // The three degradations at message time, then the refused action, once.
    expect(reported.map((error) => error.code)).toEqual([
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'EXPRESSION_ERROR',
    ]);
    await client.close();
  });

  it('a check calling one fails with its message, and a value calling one is empty', () => {
    const client = new A2uiClient();
    client.process([create('s'), update]);
    const surface = client.processor.getSurface('s')!;
    const bind = (id: string) =>
      new ComponentBinding(surface.components.get(id)!, client.getDataContext('s')).getSnapshot();
    expect(bind('email').validation).toMatchObject({
      isValid: false,
      messages: ['Use your work email'],
    });
    expect(bind('note').props.text).toBeUndefined();
    expect(bind('label').validation.isValid).toBe(true);
  });
});
