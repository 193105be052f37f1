import { BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { expectErrors } from '../../test/expected-errors.js';
import { createTestClient, setData, surface } from '../../test/test-client.js';
import {
  A2UIProvider,
  A2UIRenderer,
  type A2uiComponentProps,
  createComponentRegistry,
  useA2uiClient,
  useDataValue,
  useSurface,
  useSurfaces,
} from '../index.js';

describe('hooks', () => {
  it('useSurfaces and useSurface(id) follow creation and deletion', () => {
    const test = createTestClient();
    // biome-ignore lint/correctness/noComponentHookFactories: test fixture closing over the test's state.
    function Status() {
      const surfaces = useSurfaces();
      const booking = useSurface('booking');
      return (
        <p>
          {surfaces.map((entry) => entry.surfaceId).join(',')}|{booking ? 'booking' : 'none'}
        </p>
      );
    }
    const { container } = render(
      <A2UIProvider client={test.client}>
        <Status />
      </A2UIProvider>,
    );
    expect(container.textContent).toBe('|none');
    test.process(surface([{ id: 'root', component: 'Text', text: 'x' }], undefined, 'booking'));
    expect(container.textContent).toBe('booking|booking');
    test.process({ version: 'v0.9', deleteSurface: { surfaceId: 'booking' } });
    expect(container.textContent).toBe('|none');
  });

  it('useDataValue reads a surface path outside the surface and re-renders on change', () => {
    const test = createTestClient();
    test.client.process(
      surface([{ id: 'root', component: 'Text', text: 'x' }], { cart: { count: 2 } }, 'shop'),
    );
    let renders = 0;
    // biome-ignore lint/correctness/noComponentHookFactories: test fixture closing over the test's state.
    function Badge() {
      renders++;
      const count = useDataValue('/cart/count', { surfaceId: 'shop' });
      return <span data-testid="badge">{String(count)}</span>;
    }
    render(
      <A2UIProvider client={test.client}>
        <Badge />
      </A2UIProvider>,
    );
    expect(screen.getByTestId('badge').textContent).toBe('2');
    test.process(setData('/cart/count', 3, 'shop'));
    expect(screen.getByTestId('badge').textContent).toBe('3');
    const before = renders;
    test.process(setData('/other', 1, 'shop'));
    expect(renders).toBe(before);
  });

  it('useDataValue and useSurface inside a custom component use its surface and template scope', () => {
    // biome-ignore lint/correctness/noComponentHookFactories: test fixture closing over the test's state.
    function Line({ node }: A2uiComponentProps) {
      const name = useDataValue('name');
      const total = useDataValue('/total');
      const current = useSurface();
      return (
        <span data-testid={node.scope}>
          {String(name)}/{String(total)}/{current?.surfaceId}
        </span>
      );
    }
    const registry = createComponentRegistry().register(BASIC_CATALOG_ID, 'Text', Line);
    const test = createTestClient();
    test.client.process(
      surface(
        [
          { id: 'root', component: 'List', children: { componentId: 'line', path: '/items' } },
          { id: 'line', component: 'Text', text: '' },
        ],
        { total: 2, items: [{ name: 'a' }, { name: 'b' }] },
      ),
    );
    render(<A2UIRenderer client={test.client} registry={registry} />);
    expect(screen.getByTestId('/items/1').textContent).toBe('b/2/s');
  });

  it('useA2uiClient returns the provider client and throws outside one', () => {
    const test = createTestClient();
    let seen: unknown;
    // biome-ignore lint/correctness/noComponentHookFactories: test fixture closing over the test's state.
    function Probe() {
      seen = useA2uiClient();
      return null;
    }
    render(
      <A2UIProvider client={test.client}>
        <Probe />
      </A2UIProvider>,
    );
    expect(seen).toBe(test.client);
    expectErrors();
    expect(() => render(<Probe />)).toThrow(/inside <A2UIProvider>/);
  });
});
