import { describe, expect, it } from 'vitest';
import type { A2uiError } from '../errors/a2ui-error.js';
import { BASIC_FUNCTIONS } from '../functions/basic-functions.js';
import { DataModel } from '../state/data-model.js';
import { expandChildList } from './child-list.js';
import { type BindingHost, DataContext } from './data-context.js';
import { INDEX_OUTSIDE_TEMPLATE_MESSAGE } from './system-functions.js';
import { findUnknownFunctions } from './unknown-functions.js';

function host(initial: unknown = {}) {
  const errors: A2uiError[] = [];
  const value: BindingHost = {
    surfaceId: 's',
    dataModel: new DataModel(initial),
    functions: new Map(BASIC_FUNCTIONS.map((fn) => [fn.name, fn])),
    locale: 'en-US',
    reportError: (error) => errors.push(error),
  };
  return { host: value, errors };
}

describe('@index', () => {
  it('gives each template item its index, plus offset, in the item and its static children', () => {
    const { host: h, errors } = host({ rows: ['a', 'b', 'c'] });
    const items = expandChildList({ componentId: 'row', path: '/rows' }, new DataContext(h));
    const indices = items.map((item) => {
      const context = new DataContext(h, item.scope, item.templateIndex);
      const [child] = expandChildList(['cell'], context);
      const inner = new DataContext(h, child!.scope, child!.templateIndex);
      return [
        context.evaluate({ call: '@index', args: {} }),
        inner.evaluate({ call: '@index', args: { offset: 1 } }),
      ];
    });
    expect(indices).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(errors).toEqual([]);
  });

  it('is reachable from formatString', () => {
    const { host: h } = host({ rows: ['a'] });
    const context = new DataContext(h, '/rows/0', 0);
    expect(
      context.evaluate({ call: 'formatString', args: { value: '#${@index(offset: 1)}' } }),
    ).toBe('#1');
  });

  it('is an EXPRESSION_ERROR in the root scope, with the spec wording, and gives undefined', () => {
    const { host: h, errors } = host();
    expect(new DataContext(h).evaluate({ call: '@index', args: {} })).toBeUndefined();
    expect(errors.map((error) => [error.code, error.message])).toEqual([
      ['EXPRESSION_ERROR', INDEX_OUTSIDE_TEMPLATE_MESSAGE],
    ]);
  });

  it('refuses a non-numeric offset', () => {
    const { host: h, errors } = host();
    expect(
      new DataContext(h, '/x/0', 0).evaluate({ call: '@index', args: { offset: 'one' } }),
    ).toBeUndefined();
    expect(errors[0]?.code).toBe('EXPRESSION_ERROR');
  });

  it('is no catalog function, so an action calling it is not inert', () => {
    expect(findUnknownFunctions({ call: '@index', args: {} }, new Map())).toEqual([]);
  });
});
