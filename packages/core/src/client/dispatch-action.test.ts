/**
 * `dispatchAction` takes what a component binding already resolved (issue 13), and every error
 * passes one de-duplication set on its way to listeners and the agent.
 */
import { describe, expect, it, vi } from 'vitest';
import * as checks from '../binding/checks.js';
import { ComponentBinding } from '../binding/component-binding.js';
import { extendCatalog } from '../catalog/catalog.js';
import { basicCatalog } from '../catalog/default-catalogs.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ClientError } from '../protocol/messages.js';
import { A2uiClient } from './a2ui-client.js';
import { createRecordingTransport } from './test-recording-transport.js';

const stream = [
  { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
  {
    version: 'v0.9',
    updateDataModel: { surfaceId: 's', value: { items: [{ name: 'zero' }, { name: 'one' }] } },
  },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 's',
      components: [
        { id: 'root', component: 'List', children: { componentId: 'go', path: '/items' } },
        {
          id: 'go',
          component: 'Button',
          child: 'label',
          action: { event: { name: 'pick', context: { name: { path: 'name' } } } },
          checks: [
            { condition: { call: 'required', args: { value: { path: 'name' } } }, message: 'Name' },
          ],
        },
        { id: 'label', component: 'Text', text: { path: 'name' } },
      ],
    },
  },
];

function setup() {
  const transport = createRecordingTransport();
  const client = new A2uiClient({ transport });
  client.process(stream);
  const surface = client.processor.getSurface('s')!;
  const binding = new ComponentBinding(
    surface.components.get('go')!,
    client.getDataContext('s', '/items/1'),
  );
  return { client, transport, binding };
}

describe('dispatchAction with a binding’s resolved values', () => {
  it('resolves in the given data context and does not evaluate the checks again', async () => {
    const { client, transport, binding } = setup();
    const evaluate = vi.spyOn(checks, 'evaluateChecks');
    const { validation } = binding.getSnapshot();
    expect(
      await client.dispatchAction('s', 'go', { dataContext: binding.context, validation }),
    ).toBe(true);
    expect(evaluate).not.toHaveBeenCalled();
    expect(transport.sent[0]!.message).toMatchObject({
      action: { name: 'pick', sourceComponentId: 'go', context: { name: 'one' } },
    });
    // Without the binding's values the client evaluates them itself (so the spy does see calls).
    expect(await client.dispatchAction('s', 'go', { scope: '/items/1' })).toBe(true);
    expect(evaluate).toHaveBeenCalledTimes(1);
    evaluate.mockRestore();
  });

  it('refuses when the given validation fails, and evaluates the checks itself without one', async () => {
    const { client, transport, binding } = setup();
    const failed = checks.checkResultOf([{ message: 'Name', severity: 'error' }]);
    expect(
      await client.dispatchAction('s', 'go', { dataContext: binding.context, validation: failed }),
    ).toBe(false);
    client.process({
      version: 'v0.9',
      updateDataModel: { surfaceId: 's', path: '/items/0/name', value: '' },
    });
    expect(await client.dispatchAction('s', 'go', { scope: '/items/0' })).toBe(false);
    expect(await client.dispatchAction('s', 'go', { scope: '/items/1' })).toBe(true);
    expect(transport.sent).toHaveLength(1);
  });
});

describe('dispatchAction never sends what the server would refuse', () => {
  it('refuses a context holding a number JSON cannot carry (from a function)', async () => {
    const transport = createRecordingTransport();
    const catalog = extendCatalog(basicCatalog, {
      functions: [{ name: 'ratio', returnType: 'number', execute: () => Number.NaN }],
    });
    const client = new A2uiClient({ transport, catalogs: [catalog] });
    client.process(stream);
    await expect(
      client.dispatchAction('s', 'go', {
        scope: '/items/0',
        action: { event: { name: 'pick', context: { ratio: { call: 'ratio' } } } },
      }),
    ).rejects.toMatchObject({ code: 'EXPRESSION_ERROR', path: '/action/context/ratio' });
    expect(transport.sent).toEqual([]);
  });
});

describe('one de-duplication set for every error', () => {
  it('listeners hear each distinct error once until a reset, whoever reported it', () => {
    const client = new A2uiClient();
    const heard: ClientError[] = [];
    client.processor.onError((error) => heard.push(error));
    const error = { code: 'EXPRESSION_ERROR', surfaceId: 's', message: 'broken' };
    client.processor.reportError(error);
    client.processor.reportError({ ...error });
    const bad = '{"version":"v0.9","deleteSurface":{}}';
    // Each call still returns its own errors; listeners hear the repeat once.
    expect(client.process(bad).errors).toHaveLength(1);
    expect(client.process(bad).errors).toHaveLength(1);
    expect(heard).toHaveLength(2);
    client.processor.reset();
    client.processor.reportError(error);
    expect(heard).toHaveLength(3);
  });

  it('the agent gets a repeated binding error once, rate limiting aside', async () => {
    const transport = createRecordingTransport();
    const client = new A2uiClient({ transport, errorReporting: { maxErrors: 100 } });
    void client.connect();
    client.process(stream);
    const host = client.getBindingHost('s');
    for (let i = 0; i < 5; i++) client.getDataContext('s').evaluate({ call: 'nope' });
    expect(host.functions.has('nope')).toBe(false);
    const errors = transport.sent.filter(({ message }) => 'error' in message);
    expect(errors).toHaveLength(1);
    await client.close();
  });
});

describe('dispatchAction event forms and context values', () => {
  it('sends null for a context value calling an unknown function, and reports it once', async () => {
    const { client, transport } = setup();
    const errors: ClientError[] = [];
    client.processor.onError((error) => errors.push(error));
    const action = {
      event: {
        name: 'pick',
        context: { source: 'list', name: { path: 'name' }, extra: { call: 'nowhere', args: {} } },
      },
    };
    expect(await client.dispatchAction('s', 'go', { scope: '/items/1', action })).toBe(true);
    expect(await client.dispatchAction('s', 'go', { scope: '/items/1', action })).toBe(true);
    expect(transport.sent.map((entry) => entry.message)).toEqual([
      expect.objectContaining({
        action: expect.objectContaining({ context: { source: 'list', name: 'one', extra: null } }),
      }),
      expect.anything(),
    ]);
    expect(errors.filter((error) => error.code === 'EXPRESSION_ERROR')).toHaveLength(1);
  });

  it('accepts the {name, context} shorthand', async () => {
    const { client, transport } = setup();
    const action = { name: 'pick', context: { name: { path: 'name' }, missing: { path: 'nope' } } };
    expect(await client.dispatchAction('s', 'go', { scope: '/items/0', action })).toBe(true);
    expect(transport.sent[0]!.message).toMatchObject({
      action: { name: 'pick', context: { name: 'zero', missing: null } },
    });
  });
});
