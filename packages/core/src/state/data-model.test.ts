import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { DataModel } from './data-model.js';
import { Notifier } from './notifier.js';

describe('DataModel reads and writes (digest §7.1, §7.2)', () => {
  it('starts as {} and reads missing paths as undefined', () => {
    const model = new DataModel();
    expect(model.getSnapshot()).toEqual({});
    expect(model.get('/nope/deeper')).toBeUndefined();
  });

  it('auto-vivifies objects, and arrays where the next segment is an index', () => {
    const model = new DataModel();
    model.set('/a/b/0/c', 1);
    expect(model.getSnapshot()).toEqual({ a: { b: [{ c: 1 }] } });
  });

  it('replaces null intermediates but refuses to write through a primitive', () => {
    const model = new DataModel({ a: null, s: 'text' });
    model.set('/a/x', 1);
    expect(model.get('/a/x')).toBe(1);
    expect(() => model.set('/s/x', 1)).toThrowError(
      expect.objectContaining({ code: 'DATA_ERROR', path: '/s' }),
    );
    expect(model.get('/s')).toBe('text');
  });

  it('refuses a non-index segment on an array', () => {
    const model = new DataModel({ list: [1, 2] });
    expect(() => model.set('/list/name', 1)).toThrowError(
      expect.objectContaining({ code: 'DATA_ERROR' }),
    );
    expect(model.get('/list')).toEqual([1, 2]);
  });

  it('removes object keys, and leaves an undefined hole in arrays keeping the length', () => {
    const model = new DataModel({ user: { a: 1, b: 2 }, list: [1, 2, 3] });
    model.delete('/user/a');
    model.set('/list/1', undefined);
    expect(model.get('/user')).toEqual({ b: 2 });
    expect(model.get('/list')).toEqual([1, undefined, 3]);
    expect((model.get('/list') as unknown[]).length).toBe(3);
  });

  it('replaces the root, and resets it to {} when the value is omitted', () => {
    const model = new DataModel({ a: 1 });
    model.set('/', { b: 2 });
    expect(model.getSnapshot()).toEqual({ b: 2 });
    model.set('/', undefined);
    expect(model.getSnapshot()).toEqual({});
  });

  it('stores null as a value', () => {
    const model = new DataModel();
    model.set('/x', null);
    expect(model.getSnapshot()).toEqual({ x: null });
  });

  it('keeps identity of untouched branches and never mutates an old snapshot', () => {
    const model = new DataModel({ a: { x: 1 }, b: { y: 2 } });
    const before = model.getSnapshot() as Record<string, unknown>;
    const b = model.get('/b');
    model.set('/a/x', 5);
    expect(model.get('/b')).toBe(b);
    expect(before).toEqual({ a: { x: 1 }, b: { y: 2 } });
    expect(model.get('/a/x')).toBe(5);
  });

  it('enforces the array index and depth caps without changing anything', () => {
    const model = new DataModel({}, { maxArrayIndex: 10, maxDepth: 4 });
    expect(() => model.set('/list/11', 1)).toThrowError(
      expect.objectContaining({ code: 'LIMIT_EXCEEDED' }),
    );
    expect(() => model.set('/a/b', { c: { d: { e: 1 } } })).toThrowError(
      expect.objectContaining({ code: 'LIMIT_EXCEEDED' }),
    );
    // A primitive at the end of a too-long path is as deep as any value there.
    expect(() => model.set('/a/b/c/d/e', 1)).toThrowError(
      expect.objectContaining({ code: 'LIMIT_EXCEEDED', path: '/a/b/c/d/e' }),
    );
    model.set('/a/b/c/d', 1);
    expect(model.get('/a/b/c/d')).toBe(1);
    model.delete('/a');
    expect(model.getSnapshot()).toEqual({});
  });

  it('decodes ~0/~1 so keys with "/" and "~" are addressable', () => {
    const model = new DataModel();
    model.set('/a~1b/c~0d', 1);
    expect(model.getSnapshot()).toEqual({ 'a/b': { 'c~d': 1 } });
  });

  it('cannot be made to touch Object.prototype', () => {
    const model = new DataModel();
    expect(() => model.set('/__proto__/polluted', true)).toThrow();
    model.set('/', JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(model.get('/x/polluted')).toBeUndefined();
  });
});

describe('DataModel notifications (digest §7.3)', () => {
  it('notifies the exact path, its ancestors and subscribed descendants, but not siblings', () => {
    const model = new DataModel({ user: { name: 'a', age: 1 } });
    const calls: string[] = [];
    for (const path of ['/', '/user', '/user/name', '/user/name/first', '/user/age', '/other']) {
      model.subscribe(path, () => calls.push(path));
    }
    model.set('/user/name', 'b');
    expect(calls.sort()).toEqual(['/', '/user', '/user/name', '/user/name/first'].sort());
  });

  it('notifies everyone on root replacement', () => {
    const model = new DataModel();
    const listener = vi.fn();
    model.subscribe('/deep/path', listener);
    model.subscribe('/other', listener);
    model.set('/', { x: 1 });
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('notifies once per batch and not at all for a no-op delete', () => {
    const notifier = new Notifier();
    const model = new DataModel({}, { notifier });
    const listener = vi.fn();
    model.subscribe('/a', listener);
    notifier.batch(() => {
      model.set('/a/x', 1);
      model.set('/a/y', 2);
    });
    expect(listener).toHaveBeenCalledTimes(1);
    model.delete('/a/missing');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('counts subscriptions and returns to zero after every unsubscribe, idempotently', () => {
    const model = new DataModel();
    const listener = () => {};
    const offs = [
      model.subscribe('/a', listener),
      model.subscribe('/a', listener),
      model.subscribe('/b/c', listener),
    ];
    expect(model.subscriptionCount).toBe(3);
    for (const off of offs) {
      off();
      off();
    }
    expect(model.subscriptionCount).toBe(0);
  });

  it('reaches only the subscribers of the changed path, however many unrelated ones exist', () => {
    const model = new DataModel();
    const unrelated = vi.fn();
    for (let i = 0; i < 2000; i++) model.subscribe(`/other/${i}`, unrelated);
    const mine = vi.fn();
    model.subscribe('/target', mine);
    model.set('/target', 1);
    expect(mine).toHaveBeenCalledTimes(1);
    expect(unrelated).not.toHaveBeenCalled();
  });
});

describe('DataModel properties', () => {
  const key = fc.constantFrom('a', 'b', 'c', '0', '1', 'x/y', 't~');
  const path = fc
    .array(key, { minLength: 1, maxLength: 4 })
    .map((segments) =>
      segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''),
    );
  const json = fc.jsonValue({ maxDepth: 3 });

  it('get after a successful set returns the value; other writes keep earlier snapshots intact', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(path, fc.option(json, { nil: undefined })), { maxLength: 12 }),
        path,
        json,
        (ops, target, value) => {
          const model = new DataModel();
          for (const [p, v] of ops) {
            try {
              model.set(p, v);
            } catch {
              // DATA_ERROR for writes through primitives is expected; the model must be unchanged.
            }
          }
          const before = JSON.stringify(model.getSnapshot());
          const frozen = model.getSnapshot();
          try {
            model.set(target, value);
            expect(model.get(target)).toEqual(value);
          } catch (error) {
            expect((error as { code: string }).code).toBe('DATA_ERROR');
            expect(JSON.stringify(model.getSnapshot())).toBe(before);
          }
          expect(JSON.stringify(frozen)).toBe(before);
        },
      ),
    );
  });

  it('a listener fires iff the change is at, above or below its path', () => {
    fc.assert(
      fc.property(path, path, json, (subscribed, changed, value) => {
        const model = new DataModel();
        let fired = false;
        model.subscribe(subscribed, () => {
          fired = true;
        });
        try {
          model.set(changed, value);
        } catch {
          return;
        }
        const related =
          subscribed === changed ||
          subscribed.startsWith(`${changed}/`) ||
          changed.startsWith(`${subscribed}/`);
        expect(fired).toBe(related);
      }),
    );
  });

  it('never pollutes Object.prototype whatever the input', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('__proto__', 'constructor', 'prototype', 'a', 'polluted'), {
          minLength: 1,
          maxLength: 4,
        }),
        json,
        (segments, value) => {
          const model = new DataModel();
          try {
            model.set(`/${segments.join('/')}`, value);
          } catch {
            // INVALID_PATH is the expected outcome for forbidden segments.
          }
          expect(Object.prototype).not.toHaveProperty('polluted');
          expect(({} as Record<string, unknown>).a).toBeUndefined();
        },
      ),
    );
  });
});
