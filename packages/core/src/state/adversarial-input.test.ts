/**
 * Regression tests for what an adversarial review found: keys named "__proto__", writes batched
 * into one object, a null root.
 */
import { describe, expect, it, vi } from 'vitest';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ClientTransport } from '../transport/client-transport.js';
import { DataModel } from './data-model.js';
import { MessageProcessor } from './message-processor.js';
import { Notifier } from './notifier.js';
import { snapshotState } from './snapshot.js';

const create = (surfaceId: string, sendDataModel = false) => ({
  version: 'v0.9',
  createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID, sendDataModel },
});

describe('"__proto__" as an id or a key is an ordinary name', () => {
  it('a surface named "__proto__" appears in snapshots and in a2uiClientDataModel', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    const { errors } = processor.process(
      `[${JSON.stringify(create('__proto__', true))},
        {"version":"v0.9","updateDataModel":{"surfaceId":"__proto__","path":"/secret","value":"x"}},
        {"version":"v0.9","updateComponents":{"surfaceId":"__proto__","components":[{"id":"__proto__","component":"Text","text":"t"}]}}]`,
    );
    expect(errors).toEqual([]);
    const snapshot = snapshotState(processor);
    expect(Object.keys(snapshot.surfaces)).toEqual(['__proto__']);
    const surface = Object.getOwnPropertyDescriptor(snapshot.surfaces, '__proto__')?.value;
    expect(Object.keys(surface.components)).toEqual(['__proto__']);
    const dataModel = processor.getClientDataModel()!;
    expect(JSON.stringify(dataModel)).toBe(
      '{"version":"v0.9","surfaces":{"__proto__":{"secret":"x"}}}',
    );
    expect(Object.getPrototypeOf(dataModel.surfaces)).toBe(Object.prototype);
  });

  it('an action context key "__proto__" is sent as a key and never becomes a prototype', async () => {
    const sent: Array<{ action: { context: Record<string, unknown> } }> = [];
    const transport: ClientTransport = {
      async *events() {},
      async send(message) {
        sent.push(message as (typeof sent)[number]);
      },
      async close() {},
    };
    const client = new A2uiClient({ transport });
    const { errors } = client.process(`[${JSON.stringify(create('s'))},
      {"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/","value":{"isAdmin":true}}},
      {"version":"v0.9","updateComponents":{"surfaceId":"s","components":[
        {"id":"root","component":"Button","child":"t","action":{"event":{"name":"go","context":{"__proto__":{"path":"/"}}}}},
        {"id":"t","component":"Text","text":"x"}]}}]`);
    expect(errors).toEqual([]);
    await client.dispatchAction('s', 'root');
    const context = sent[0]!.action.context;
    expect(Object.keys(context)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(context)).toBe(Object.prototype);
    expect(context.isAdmin).toBeUndefined();
    expect(JSON.stringify(context)).toBe('{"__proto__":{"isAdmin":true}}');
  });
});

describe('writes batched into one container', () => {
  it('change it in place within a batch, yet leave every earlier snapshot intact and notify once', () => {
    const notifier = new Notifier();
    const model = new DataModel({ o: { a: 1 } }, { notifier });
    const before = model.getSnapshot();
    const beforeO = model.get('/o');
    const listener = vi.fn();
    model.subscribe('/o', listener);
    notifier.batch(() => {
      for (let i = 0; i < 1000; i++) model.set(`/o/k${i}`, i);
      model.delete('/o/a');
    });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(before).toEqual({ o: { a: 1 } });
    expect(beforeO).toEqual({ a: 1 });
    const after = model.get('/o') as Record<string, number>;
    expect(after).not.toBe(beforeO);
    expect(Object.keys(after)).toHaveLength(1000);
    // The next batch copies again: the snapshot taken between batches never changes.
    notifier.batch(() => model.set('/o/k0', 'changed'));
    expect(after.k0).toBe(0);
    expect(model.get('/o/k0')).toBe('changed');
  });

  it('counts a change made in place as a change', () => {
    const notifier = new Notifier();
    const model = new DataModel({}, { notifier });
    const versions: number[] = [];
    notifier.batch(() => {
      model.set('/o/a', 1);
      versions.push(model.version);
      model.set('/o/b', 2);
      versions.push(model.version);
    });
    expect(versions[1]).toBe(versions[0]! + 1);
  });

  it('a batch of 12,000 key additions through the processor applies them all', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    processor.process(create('s'));
    const batch = Array.from({ length: 12_000 }, (_, i) => ({
      version: 'v0.9',
      updateDataModel: { surfaceId: 's', path: `/o/k${i}`, value: i },
    }));
    expect(processor.process(batch).errors).toEqual([]);
    expect(Object.keys(processor.getSurface('s')!.dataModel.get('/o') as object)).toHaveLength(
      12_000,
    );
  });
});

describe('a null root', () => {
  it('is vivified by the next write, like any null intermediate', () => {
    const model = new DataModel();
    model.set('/', null);
    model.set('/x', 1);
    expect(model.getSnapshot()).toEqual({ x: 1 });
    model.set('/', null);
    model.set('/0', 'a');
    expect(model.getSnapshot()).toEqual(['a']);
  });
});

describe('hostile in-process input', () => {
  it('never throws out of process(): throwing getters and Proxies become errors', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    const getter = {
      version: 'v0.9',
      get createSurface(): never {
        throw new Error('boom');
      },
    };
    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        ownKeys() {
          throw new Error('trap');
        },
        has() {
          throw new Error('trap');
        },
      },
    );
    for (const input of [getter, proxy, [proxy], { messages: proxy }]) {
      const result = processor.process(input);
      expect(result.applied).toBe(0);
      expect(result.errors.length).toBeGreaterThan(0);
    }
  });

  it('accepts JSON text that starts with a UTF-8 byte order mark', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    expect(processor.process(`\uFEFF${JSON.stringify(create('s'))}`)).toEqual({
      applied: 1,
      errors: [],
    });
  });
});
