import { describe, expect, it, vi } from 'vitest';
import { A2uiClient } from '../client/a2ui-client.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { ComponentBinding } from './component-binding.js';
import { sameValue } from './same-value.js';

/** createSurface + updateComponents (+ data) for surface `s`. */
function surface(components: Array<Record<string, unknown>>, data?: unknown): unknown[] {
  const messages: unknown[] = [
    { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
    { version: 'v0.9', updateComponents: { surfaceId: 's', components } },
  ];
  if (data !== undefined)
    messages.push({ version: 'v0.9', updateDataModel: { surfaceId: 's', value: data } });
  return messages;
}

function bind(component: Record<string, unknown>, data: unknown, scope = '/') {
  const client = new A2uiClient();
  client.process(surface([{ id: 'c', ...component }], data));
  const model = client.processor.getSurface('s')!;
  const record = model.components.get('c')!;
  const binding = new ComponentBinding(record, client.getDataContext('s', scope));
  return { client, model, binding };
}

describe('ComponentBinding', () => {
  it('resolves literals, paths, calls, nested values, and expands templates', () => {
    const { binding } = bind(
      {
        component: 'Column',
        children: { componentId: 'item', path: '/items' },
        accessibility: { label: { path: '/label' } },
      },
      { items: [1, 2], label: 'Numbers' },
    );
    const { props, validation } = binding.getSnapshot();
    expect(props.children).toEqual([
      { id: 'item', scope: '/items/0', key: 'item@0', templateIndex: 0 },
      { id: 'item', scope: '/items/1', key: 'item@1', templateIndex: 1 },
    ]);
    expect(props.accessibility).toEqual({ label: 'Numbers' });
    expect(validation.isValid).toBe(true);
    expect('id' in props || 'component' in props).toBe(false);
  });

  it('never evaluates actions at bind time', () => {
    const open = vi.fn();
    const client = new A2uiClient({ openUrl: open });
    client.process(
      surface([
        {
          id: 'c',
          component: 'Button',
          child: 't',
          action: { functionCall: { call: 'openUrl', args: { url: 'https://example.com' } } },
        },
        { id: 't', component: 'Text', text: 'x' },
      ]),
    );
    const binding = new ComponentBinding(
      client.processor.getSurface('s')!.components.get('c')!,
      client.getDataContext('s'),
    );
    expect(binding.getSnapshot().props.action).toEqual({
      functionCall: { call: 'openUrl', args: { url: 'https://example.com' } },
    });
    expect(open).not.toHaveBeenCalled();
  });

  it('subscribes only while listened to, exactly to the paths read', () => {
    const { binding, model } = bind(
      {
        component: 'TextField',
        label: { path: '/label' },
        value: { path: '/v' },
        checks: [
          { condition: { call: 'required', args: { value: { path: '/v' } } }, message: 'req' },
        ],
      },
      { label: 'L', v: '' },
    );
    expect(model.dataModel.subscriptionCount).toBe(0);
    const listener = vi.fn();
    const unsubscribe = binding.subscribe(listener);
    expect(binding.subscriptionCount).toBe(2);
    expect(model.dataModel.subscriptionCount).toBe(2);
    const before = binding.getSnapshot();
    expect(before.validation).toEqual({
      isValid: false,
      messages: ['req'],
      failures: [{ message: 'req', severity: 'error' }],
    });
    model.dataModel.set('/v', 'x');
    expect(listener).toHaveBeenCalledTimes(1);
    const after = binding.getSnapshot();
    expect(after).not.toBe(before);
    expect(after.props.label).toBe(before.props.label);
    expect(after.validation.isValid).toBe(true);
    model.dataModel.set('/unrelated', 1);
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    expect(model.dataModel.subscriptionCount).toBe(0);
  });

  it('keeps its snapshot when a change does not alter what it renders', () => {
    const { binding, model } = bind(
      { component: 'Text', text: { path: '/a/b' } },
      { a: { b: 'same', c: 1 } },
    );
    const listener = vi.fn();
    binding.subscribe(listener);
    const before = binding.getSnapshot();
    // Replacing the parent object with an equal value notifies /a/b, but the text is the same.
    model.dataModel.set('/a', { b: 'same', c: 2 });
    expect(binding.getSnapshot()).toBe(before);
    expect(listener).not.toHaveBeenCalled();
  });

  it('stays correct without subscribers by checking what it read', () => {
    const { binding, model } = bind({ component: 'Text', text: { path: '/t' } }, { t: 'one' });
    const first = binding.getSnapshot();
    expect(binding.getSnapshot()).toBe(first);
    model.dataModel.set('/t', 'two');
    expect(binding.getSnapshot().props.text).toBe('two');
  });

  it('resolves relative paths in its scope', () => {
    const { binding } = bind(
      { component: 'Text', text: { path: 'name' } },
      { list: [{ name: 'zero' }, { name: 'one' }] },
      '/list/1',
    );
    expect(binding.getSnapshot().props.text).toBe('one');
  });
});

describe('sameValue', () => {
  it('compares structurally, by identity first', () => {
    expect(sameValue(1, 1)).toBe(true);
    expect(sameValue(Number.NaN, Number.NaN)).toBe(true);
    expect(sameValue([1, { a: [2] }], [1, { a: [2] }])).toBe(true);
    expect(sameValue([1, { a: [2] }], [1, { a: [3] }])).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameValue([1], { 0: 1 })).toBe(false);
    expect(sameValue(new Date(0), new Date(0))).toBe(false);
  });
});
