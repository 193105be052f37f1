/**
 * RE2 loads on the first `regex` call (this file imports the function alone, not through
 * `@a2ui-ts/core`, which would hand it over statically as Node does).
 */
import { describe, expect, it, vi } from 'vitest';
import { DataContext } from '../binding/data-context.js';
import { DataObserver } from '../binding/data-observer.js';
import type { A2uiError } from '../errors/a2ui-error.js';
import { DataModel } from '../state/data-model.js';
import { BASIC_FUNCTIONS } from './basic-functions.js';
import { regexEngineModule } from './regex-function.js';

describe('regex before RE2 has loaded', () => {
  it('evaluates to nothing, reports nothing, and evaluates again once RE2 is there', async () => {
    expect(regexEngineModule.loaded).toBe(false);
    const errors: A2uiError[] = [];
    const dataModel = new DataModel({ zip: '75001' });
    const context = new DataContext({
      surfaceId: 's',
      dataModel,
      functions: new Map(BASIC_FUNCTIONS.map((fn) => [fn.name, fn])),
      locale: 'en-US',
      reportError: (error) => errors.push(error),
    });
    const call = { call: 'regex', args: { value: { path: '/zip' }, pattern: '^[0-9]{5}$' } };
    const onChange = vi.fn();
    const watch = context.watch(call, onChange);
    // An observer nobody listens to, read after the load: it must not keep the stale value.
    const unheard = new DataObserver(dataModel, (dependencies) =>
      context.evaluate(call, { dependencies }),
    );
    expect(watch.get()).toBeUndefined();
    expect(unheard.getSnapshot()).toBeUndefined();
    expect(errors).toEqual([]);

    await regexEngineModule.load();

    expect(onChange).toHaveBeenCalledTimes(1);
    expect(watch.get()).toBe(true);
    expect(unheard.getSnapshot()).toBe(true);
    expect(context.evaluate({ ...call, args: { value: 'x', pattern: '^[0-9]{5}$' } })).toBe(false);
    expect(errors).toEqual([]);
    watch.dispose();
  });
});
