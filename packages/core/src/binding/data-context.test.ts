import { describe, expect, it, vi } from 'vitest';
import type { A2uiError } from '../errors/a2ui-error.js';
import { BASIC_FUNCTIONS } from '../functions/basic-functions.js';
import { DataModel } from '../state/data-model.js';
import { evaluateChecks } from './checks.js';
import { expandChildList } from './child-list.js';
import { type BindingHost, DataContext } from './data-context.js';

function host(initial: unknown = {}, locale = 'en-US') {
  const errors: A2uiError[] = [];
  const value: BindingHost = {
    surfaceId: 's',
    dataModel: new DataModel(initial),
    functions: new Map(BASIC_FUNCTIONS.map((fn) => [fn.name, fn])),
    locale,
    reportError: (error) => errors.push(error),
  };
  return { host: value, errors };
}

describe('DataContext.evaluate (digest §6, §7.4)', () => {
  it('returns literals as they are and reads absolute and relative paths', () => {
    const { host: h } = host({ items: [{ name: 'a' }, { name: 'b' }], title: 'T' });
    const item = new DataContext(h, '/items/1');
    expect(item.evaluate('plain ${not interpolated}')).toBe('plain ${not interpolated}');
    expect(item.evaluate(3)).toBe(3);
    expect(item.evaluate({ path: 'name' })).toBe('b');
    expect(item.evaluate({ path: '/title' })).toBe('T');
    expect(item.evaluate({ path: '.' })).toEqual({ name: 'b' });
    expect(item.evaluate({ path: 'missing' })).toBeUndefined();
  });

  it('calls catalog functions with resolved args, nested calls included', () => {
    const { host: h } = host({ total: 1234.5, n: 2 }, 'de-DE');
    const context = new DataContext(h);
    expect(
      context.evaluate({
        call: 'formatCurrency',
        args: { value: { path: '/total' }, currency: 'EUR' },
      }),
    ).toBe('1.234,50\u00a0€');
    expect(
      context.evaluate({
        call: 'and',
        args: {
          values: [
            { call: 'required', args: { value: { path: '/n' } } },
            { call: 'not', args: { value: false } },
          ],
        },
      }),
    ).toBe(true);
    expect(
      context.evaluate({
        call: 'formatString',
        args: { value: 'n=${/n} of ${formatNumber(value: ${/total}, decimals: 0)}' },
      }),
    ).toBe('n=2 of 1.235');
  });

  it('reports an unknown function as EXPRESSION_ERROR and gives undefined, without throwing', () => {
    const { host: h, errors } = host();
    expect(new DataContext(h).evaluate({ call: 'shout', args: {} })).toBeUndefined();
    expect(errors.map((error) => error.code)).toEqual(['EXPRESSION_ERROR']);
    expect(errors[0]!.message).toContain('shout');
  });

  it('records every path read as a dependency, through function calls and formatString', () => {
    const { host: h } = host({ a: 1, b: 2 });
    const dependencies = new Set<string>();
    new DataContext(h, '/items/0').evaluate(
      { call: 'formatString', args: { value: '${/a} ${name} ${formatNumber(value: ${/b})}' } },
      { dependencies },
    );
    expect([...dependencies].sort()).toEqual(['/a', '/b', '/items/0/name']);
  });

  it('does not let openUrl run outside a user action', () => {
    const { host: h, errors } = host();
    expect(
      new DataContext(h).evaluate({ call: 'openUrl', args: { url: 'https://a2ui.org' } }),
    ).toBeUndefined();
    expect(errors[0]!.code).toBe('EXPRESSION_ERROR');
    const opened: string[] = [];
    new DataContext(h).evaluate(
      { call: 'openUrl', args: { url: 'https://a2ui.org' } },
      { openUrl: (url) => opened.push(url) },
    );
    expect(opened).toEqual(['https://a2ui.org/']);
  });
});

describe('DataContext.watch', () => {
  it('re-evaluates when a dependency changes and notifies only on a different result', () => {
    const { host: h } = host({ user: { first: 'Ada', last: 'L' } });
    const onChange = vi.fn();
    const watch = new DataContext(h).watch(
      { call: 'formatString', args: { value: '${/user/first}' } },
      onChange,
    );
    expect(watch.get()).toBe('Ada');
    h.dataModel.set('/user/last', 'Lovelace');
    expect(onChange).not.toHaveBeenCalled();
    h.dataModel.set('/user/first', 'Grace');
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(watch.get()).toBe('Grace');
    watch.dispose();
    expect(h.dataModel.subscriptionCount).toBe(0);
  });

  it('disposes every subscription it made, idempotently', () => {
    const { host: h } = host({ a: 'A' });
    const context = new DataContext(h);
    const onChange = vi.fn();
    const watch = context.watch({ call: 'formatString', args: { value: '${/a}' } }, onChange);
    expect(h.dataModel.subscriptionCount).toBe(1);
    watch.dispose();
    watch.dispose();
    expect(h.dataModel.subscriptionCount).toBe(0);
  });

  it('never subscribes for literals', () => {
    const { host: h } = host();
    const watch = new DataContext(h).watch('literal', () => {});
    expect(watch.get()).toBe('literal');
    expect(h.dataModel.subscriptionCount).toBe(0);
  });
});

describe('DataContext.resolveContext (§8.5)', () => {
  it('resolves every value in the scope, nested arrays and objects too', () => {
    const { host: h } = host({ items: [{ id: 7, tags: ['x'] }] });
    const context = new DataContext(h, '/items/0');
    expect(
      context.resolveContext({
        id: { path: 'id' },
        fixed: 'f',
        list: [{ path: 'tags' }, 1],
        deep: { a: { path: '/items/0/id' } },
      }),
    ).toEqual({
      id: 7,
      fixed: 'f',
      list: [['x'], 1],
      deep: { a: 7 },
    });
  });
});

describe('expandChildList (§5.2, §7.4)', () => {
  it('keeps the parent scope for static children, with unique keys for repeated ids', () => {
    const { host: h } = host();
    expect(expandChildList(['a', 'b', 'a'], new DataContext(h, '/x'))).toEqual([
      { id: 'a', scope: '/x', key: 'a' },
      { id: 'b', scope: '/x', key: 'b' },
      { id: 'a', scope: '/x', key: 'a#1' },
    ]);
  });

  it('instantiates a template per array item with scope <list>/<index>, relative lists included', () => {
    const { host: h } = host({ groups: [{ rows: ['r0', 'r1'] }] });
    const dependencies = new Set<string>();
    const children = expandChildList(
      { componentId: 'row', path: 'rows' },
      new DataContext(h, '/groups/0'),
      { dependencies },
    );
    expect(children.map((child) => child.scope)).toEqual(['/groups/0/rows/0', '/groups/0/rows/1']);
    expect([...dependencies]).toEqual(['/groups/0/rows']);
  });

  it('gives no children for a non-array, and caps expansion with one report', () => {
    const { host: h, errors } = host({
      map: { a: 1 },
      big: Array.from({ length: 10 }, (_, i) => i),
    });
    expect(expandChildList({ componentId: 'x', path: '/map' }, new DataContext(h))).toEqual([]);
    expect(
      expandChildList({ componentId: 'x', path: '/big' }, new DataContext(h), {
        maxTemplateItems: 3,
      }),
    ).toHaveLength(3);
    expect(errors.map((error) => error.code)).toEqual(['LIMIT_EXCEEDED']);
  });
});

describe('evaluateChecks (§8.4)', () => {
  const checks = [
    {
      condition: { call: 'required', args: { value: { path: '/email' } } },
      message: 'Email is required',
    },
    {
      condition: { call: 'email', args: { value: { path: '/email' } } },
      message: 'Invalid email format',
    },
  ];

  it('lists the failing messages in order and is valid when all pass', () => {
    const { host: h } = host();
    const context = new DataContext(h);
    expect(evaluateChecks(checks, context)).toEqual({
      isValid: false,
      messages: ['Email is required', 'Invalid email format'],
      failures: [
        { message: 'Email is required', severity: 'error' },
        { message: 'Invalid email format', severity: 'error' },
      ],
    });
    h.dataModel.set('/email', 'invalid-email');
    expect(evaluateChecks(checks, context).messages).toEqual(['Invalid email format']);
    h.dataModel.set('/email', 'a@b.co');
    expect(evaluateChecks(checks, context)).toEqual({ isValid: true, messages: [], failures: [] });
  });

  it('accepts the shorthand {call, args, message} the reference renderers tolerate', () => {
    const { host: h } = host();
    expect(
      evaluateChecks([{ call: 'required', args: { value: { path: '/x' } } }], new DataContext(h)),
    ).toEqual({
      isValid: false,
      messages: ['Validation failed'],
      failures: [{ message: 'Validation failed', severity: 'error' }],
    });
  });

  it('reads a v1.0 ValidationResult: its message, code and severity; only errors invalidate', () => {
    const { host: h } = host();
    const context = new DataContext(h);
    h.dataModel.set('/card', { valid: false, code: 'EXPIRED_CARD', message: 'Card expired.' });
    h.dataModel.set('/hint', { valid: false, message: 'Looks short.', severity: 'warning' });
    h.dataModel.set('/bare', { valid: false, severity: 'loud' });
    h.dataModel.set('/fine', { valid: true, message: 'ignored', severity: 'error' });
    const rules = (...paths: string[]) =>
      paths.map((path) => ({ condition: { path }, message: `rule ${path}` }));
    expect(evaluateChecks(rules('/fine'), context)).toEqual({
      isValid: true,
      messages: [],
      failures: [],
    });
    expect(evaluateChecks(rules('/hint'), context)).toEqual({
      isValid: true,
      messages: [],
      failures: [{ message: 'Looks short.', severity: 'warning' }],
    });
    // No message of its own: the rule's fallback; an unknown severity is the default, error.
    expect(evaluateChecks(rules('/hint', '/card', '/bare'), context)).toEqual({
      isValid: false,
      messages: ['Card expired.', 'rule /bare'],
      failures: [
        { message: 'Looks short.', severity: 'warning' },
        { message: 'Card expired.', code: 'EXPIRED_CARD', severity: 'error' },
        { message: 'rule /bare', severity: 'error' },
      ],
    });
  });
});
