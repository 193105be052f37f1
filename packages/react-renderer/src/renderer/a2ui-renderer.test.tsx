import { A2uiClient, BASIC_CATALOG_ID, createCatalog, MINIMAL_CATALOG_ID } from '@a2ui-ts/core';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectErrors } from '../../test/expected-errors.js';
import {
  BASIC,
  createTestClient,
  flush,
  renderMessages,
  setData,
  surface,
} from '../../test/test-client.js';
import {
  A2UIProvider,
  A2UIRenderer,
  type A2uiComponentProps,
  ANY_CATALOG,
  BASIC_COMPONENTS,
  createComponentRegistry,
} from '../index.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('surfaces', () => {
  it('renders every surface in creation order, or only surfaceId', () => {
    const test = createTestClient();
    test.client.process([
      ...surface([{ id: 'root', component: 'Text', text: 'First' }], undefined, 'one'),
      ...surface([{ id: 'root', component: 'Text', text: 'Second' }], undefined, 'two'),
    ]);
    const { container, rerender } = render(<A2UIRenderer client={test.client} />);
    expect(
      [...container.querySelectorAll('[data-a2ui-surface]')].map((element) =>
        element.getAttribute('data-a2ui-surface'),
      ),
    ).toEqual(['one', 'two']);
    rerender(<A2UIRenderer client={test.client} surfaceId="two" />);
    expect(container.textContent).toBe('Second');
  });

  it('follows creation and deletion, and remounts a surface created again under the same id', () => {
    const test = createTestClient();
    const { container } = render(<A2UIRenderer client={test.client} surfaceId="x" />);
    expect(container.textContent).toBe('');
    test.process(surface([{ id: 'root', component: 'Text', text: 'v1' }], undefined, 'x'));
    expect(container.textContent).toBe('v1');
    test.process({ version: 'v0.9', deleteSurface: { surfaceId: 'x' } });
    expect(container.textContent).toBe('');
    test.process(surface([{ id: 'root', component: 'Text', text: 'v2' }], undefined, 'x'));
    expect(container.textContent).toBe('v2');
  });

  it('takes the client and options from A2UIProvider', () => {
    const test = createTestClient();
    test.client.process(surface([{ id: 'root', component: 'Text', text: 'From provider' }]));
    const { container } = render(
      <A2UIProvider client={test.client} colorScheme="dark">
        <A2UIRenderer />
      </A2UIProvider>,
    );
    expect(screen.getByText('From provider')).toBeTruthy();
    expect(container.querySelector('.a2ui-surface')?.getAttribute('data-theme')).toBe('dark');
  });

  it('throws a clear error without a client', () => {
    expectErrors();
    expect(() => render(<A2UIRenderer />)).toThrow(/needs a `client` prop/);
  });

  it('applies theme.primaryColor with a contrasting text colour; ignores a malformed one', () => {
    const test = createTestClient();
    test.client.process([
      {
        version: 'v0.9',
        createSurface: { surfaceId: 'a', catalogId: BASIC, theme: { primaryColor: '#FFD700' } },
      },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 'a',
          components: [{ id: 'root', component: 'Text', text: 'A' }],
        },
      },
      {
        version: 'v0.9',
        createSurface: { surfaceId: 'b', catalogId: BASIC, theme: { primaryColor: '#123456' } },
      },
    ]);
    const { container } = render(<A2UIRenderer client={test.client} colorScheme="light" />);
    const [a, b] = container.querySelectorAll<HTMLElement>('.a2ui-surface');
    expect(a!.style.getPropertyValue('--a2ui-color-primary')).toBe('#FFD700');
    expect(a!.style.getPropertyValue('--a2ui-color-on-primary')).toBe('#000000');
    expect(b!.style.getPropertyValue('--a2ui-color-on-primary')).toBe('#ffffff');
    expect(a!.getAttribute('data-theme')).toBe('light');
    // Text in the primary colour reads at 4.5:1 in each scheme: gold darkened on light
    // surfaces; navy lightened on dark ones, kept as it is on light ones.
    const contrast = (x: string, y: string) => {
      const luminance = (hex: string) => {
        const [r, g, b] = [1, 3, 5].map((offset) => {
          const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
          return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
        }) as [number, number, number];
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const [high, low] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
      return (high + 0.05) / (low + 0.05);
    };
    const textOf = (element: HTMLElement, scheme: string) =>
      element.style.getPropertyValue(`--a2ui-color-primary-text-${scheme}`);
    expect(contrast(textOf(a!, 'light'), '#f0f2f5')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(textOf(a!, 'dark'), '#2d2f31')).toBeGreaterThanOrEqual(4.5);
    expect(textOf(a!, 'dark')).toBe('#ffd700');
    expect(textOf(b!, 'light')).toBe('#123456');
    expect(contrast(textOf(b!, 'dark'), '#2d2f31')).toBeGreaterThanOrEqual(4.5);
  });
});

describe('root timeout', () => {
  it('shows a diagnostic after rootTimeoutMs, reports TIMEOUT once, and recovers when root arrives', async () => {
    vi.useFakeTimers();
    const onRootTimeout = vi.fn();
    const test = createTestClient();
    test.client.process({
      version: 'v0.9',
      createSurface: { surfaceId: 'late', catalogId: BASIC },
    });
    render(
      <A2UIRenderer client={test.client} rootTimeoutMs={2000} onRootTimeout={onRootTimeout} />,
    );
    expect(screen.getByRole('status').getAttribute('aria-busy')).toBe('true');
    act(() => {
      vi.advanceTimersByTime(1999);
    });
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByRole('alert').textContent).toContain('late');
    expect(onRootTimeout).toHaveBeenCalledWith('late');
    expect(test.errors.filter((error) => error.code === 'TIMEOUT')).toHaveLength(1);
    test.process({
      version: 'v0.9',
      updateComponents: {
        surfaceId: 'late',
        components: [{ id: 'root', component: 'Text', text: 'Finally' }],
      },
    });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Finally')).toBeTruthy();
  });

  it('Infinity disables it', () => {
    vi.useFakeTimers();
    const test = createTestClient();
    test.client.process({
      version: 'v0.9',
      createSurface: { surfaceId: 'late', catalogId: BASIC },
    });
    render(<A2UIRenderer client={test.client} rootTimeoutMs={Number.POSITIVE_INFINITY} />);
    act(() => {
      vi.advanceTimersByTime(3_600_000);
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('unknown components', () => {
  it('shows a visible fallback, still renders its children, and reports VALIDATION_FAILED once', async () => {
    const test = renderMessages(
      surface([
        { id: 'root', component: 'Column', children: ['mystery', 'mystery'] },
        { id: 'mystery', component: 'YouTub', children: ['inside'] },
        { id: 'inside', component: 'Text', text: 'Still here' },
      ]),
    );
    expect(screen.getAllByText('Unknown component: YouTub')).toHaveLength(2);
    expect(screen.getAllByText('Still here')).toHaveLength(2);
    test.process(setData('/x', 1));
    await flush();
    const reports = test.errors.filter(
      (error) => error.code === 'VALIDATION_FAILED' && error.message.includes('YouTub'),
    );
    expect(reports).toHaveLength(1);
  });

  it('reports a catalog type with no implementation once', async () => {
    const test = renderMessages(surface([{ id: 'root', component: 'Text', text: 'x' }]), {
      registry: createComponentRegistry({ builtins: false }),
    });
    expect(screen.getByText('Unknown component: Text')).toBeTruthy();
    await flush();
    expect(test.errors.filter((error) => error.code === 'VALIDATION_FAILED')).toHaveLength(1);
  });

  it('stops a reference cycle with a fallback and LIMIT_EXCEEDED', async () => {
    const test = createTestClient({ validate: false });
    test.client.process(
      surface([
        { id: 'root', component: 'Column', children: ['a'] },
        { id: 'a', component: 'Column', children: ['b'] },
        { id: 'b', component: 'Column', children: ['a'] },
      ]),
    );
    expectErrors();
    const { container } = render(<A2UIRenderer client={test.client} />);
    expect(container.querySelectorAll('.a2ui-fallback')).toHaveLength(1);
    await flush();
    expect(test.errors.filter((error) => error.code === 'LIMIT_EXCEEDED')).toHaveLength(1);
  });
});

describe('binding errors', () => {
  it('are reported once per surface, after render, and the value renders empty', async () => {
    const test = createTestClient();
    test.client.process(
      surface([
        { id: 'root', component: 'Column', children: ['bad', 'echo'] },
        {
          id: 'bad',
          component: 'Text',
          text: { call: 'formatString', args: { value: 'Hi ${/name' } },
        },
        { id: 'echo', component: 'Text', text: { path: '/name' } },
      ]),
    );
    const { container } = render(<A2UIRenderer client={test.client} />);
    expect(test.errors).toEqual([]);
    test.process(setData('/name', 'Ada'));
    test.process(setData('/name', 'Grace'));
    await flush();
    expect(test.errors.filter((error) => error.code === 'EXPRESSION_ERROR')).toHaveLength(1);
    expect(container.querySelector('[data-a2ui-id="bad"]')?.textContent).toBe('');
    expect(screen.getByText('Grace')).toBeTruthy();
  });
});

describe('custom components', () => {
  interface BadgeProps {
    readonly label?: unknown;
    readonly count?: unknown;
  }
  // biome-ignore lint/correctness/noComponentHookFactories: test fixture closing over the test's state.
  function Badge({ id, props }: A2uiComponentProps<BadgeProps>) {
    return (
      <span data-testid={id}>
        {String(props.label)}: {String(props.count)}
      </span>
    );
  }
  const CUSTOM = 'https://example.com/catalogs/badges/v1';
  const customCatalog = createCatalog({ catalogId: CUSTOM, components: ['Badge', 'Column'] });

  it('renders a registered component of a custom catalog with resolved, reactive props', () => {
    const test = createTestClient({ catalogs: [customCatalog] });
    test.client.process([
      { version: 'v0.9', createSurface: { surfaceId: 'c', catalogId: CUSTOM } },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 'c',
          components: [
            { id: 'root', component: 'Column', children: ['badge'] },
            { id: 'badge', component: 'Badge', label: 'Inbox', count: { path: '/unread' } },
          ],
        },
      },
      { version: 'v0.9', updateDataModel: { surfaceId: 'c', path: '/unread', value: 3 } },
    ]);
    const registry = createComponentRegistry()
      .register(CUSTOM, 'Badge', Badge)
      .registerAll(CUSTOM, { Column: BASIC_COMPONENTS.Column! });
    render(<A2UIRenderer client={test.client} registry={registry} />);
    expect(screen.getByTestId('badge').textContent).toBe('Inbox: 3');
    test.process({
      version: 'v0.9',
      updateDataModel: { surfaceId: 'c', path: '/unread', value: 4 },
    });
    expect(screen.getByTestId('badge').textContent).toBe('Inbox: 4');
  });

  it('overrides a basic component, and ANY_CATALOG applies to every catalog', () => {
    // biome-ignore lint/correctness/noComponentHookFactories: test fixture closing over the test's state.
    const BrandText = ({ props }: A2uiComponentProps<{ text?: unknown }>) => (
      <em>brand:{String(props.text)}</em>
    );
    const registry = createComponentRegistry().register(BASIC_CATALOG_ID, 'Text', BrandText);
    renderMessages(surface([{ id: 'root', component: 'Text', text: 'hi' }]), { registry });
    expect(screen.getByText('brand:hi')).toBeTruthy();

    const anyRegistry = createComponentRegistry({ builtins: false }).register(
      ANY_CATALOG,
      'Text',
      BrandText,
    );
    const test = createTestClient();
    test.client.process([
      { version: 'v0.9', createSurface: { surfaceId: 'm', catalogId: MINIMAL_CATALOG_ID } },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 'm',
          components: [{ id: 'root', component: 'Text', text: 'min' }],
        },
      },
    ]);
    render(<A2UIRenderer client={test.client} registry={anyRegistry} />);
    expect(screen.getByText('brand:min')).toBeTruthy();
  });

  it('a throwing custom component is contained and reported; the rest renders', async () => {
    expectErrors();
    // biome-ignore lint/correctness/noComponentHookFactories: test fixture closing over the test's state.
    const Broken = () => {
      throw new Error('boom');
    };
    const registry = createComponentRegistry().register(BASIC_CATALOG_ID, 'Divider', Broken);
    const test = renderMessages(
      surface([
        { id: 'root', component: 'Column', children: ['ok', 'line'] },
        { id: 'ok', component: 'Text', text: 'Fine' },
        { id: 'line', component: 'Divider' },
      ]),
      { registry },
    );
    expect(screen.getByText('Fine')).toBeTruthy();
    expect(screen.getByText('"line" could not be shown.')).toBeTruthy();
    await flush();
    expect(
      test.errors.some(
        (error) => error.code === 'INTERNAL_ERROR' && error.message.includes('boom'),
      ),
    ).toBe(true);
  });

  it('exposes the node: setValue, isBound, dispatchAction, sanitizeUrl', async () => {
    // biome-ignore lint/correctness/noComponentHookFactories: test fixture closing over the test's state.
    function Probe({ node }: A2uiComponentProps) {
      return (
        <button type="button" onClick={() => node.setValue('value', 'written')}>
          {String(node.isBound('value'))} {String(node.sanitizeUrl('javascript:alert(1)'))}{' '}
          {node.scope}
        </button>
      );
    }
    const registry = createComponentRegistry().register(ANY_CATALOG, 'Probe', Probe);
    const custom = createCatalog({ catalogId: 'https://example.com/any', components: ['Probe'] });
    const second = createTestClient({ catalogs: [custom] });
    second.client.process([
      { version: 'v0.9', createSurface: { surfaceId: 'p', catalogId: 'https://example.com/any' } },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 'p',
          components: [{ id: 'root', component: 'Probe', value: { path: '/v' } }],
        },
      },
    ]);
    render(<A2UIRenderer client={second.client} registry={registry} />);
    const button = screen.getByRole('button');
    expect(button.textContent).toBe('true undefined /');
    fireEvent.click(button);
    expect(second.client.processor.getSurface('p')?.dataModel.get('/v')).toBe('written');
    await flush();
    expect(second.errors.filter((error) => error.code === 'URL_BLOCKED')).toHaveLength(1);
  });
});

describe('actions', () => {
  it('resolves the context in the template item scope at click time', async () => {
    const test = renderMessages(
      surface(
        [
          { id: 'root', component: 'List', children: { componentId: 'item', path: '/people' } },
          {
            id: 'item',
            component: 'Button',
            child: 'label',
            action: {
              event: {
                name: 'pick',
                context: { who: { path: 'name' }, all: { path: '/people' }, fixed: 7 },
              },
            },
          },
          { id: 'label', component: 'Text', text: { path: 'name' } },
        ],
        { people: [{ name: 'Ada' }, { name: 'Grace' }] },
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Grace' }));
    await flush();
    const action = (test.sent[0] as { action: { name: string; context: Record<string, unknown> } })
      .action;
    expect(action.name).toBe('pick');
    expect(action.context).toEqual({
      who: 'Grace',
      all: [{ name: 'Ada' }, { name: 'Grace' }],
      fixed: 7,
    });
  });

  it('runs openUrl locally through the URL policy, only on click', async () => {
    const opened: string[] = [];
    const test = renderMessages(
      surface([
        { id: 'root', component: 'Row', children: ['good', 'bad'] },
        {
          id: 'good',
          component: 'Button',
          child: 'g',
          action: { functionCall: { call: 'openUrl', args: { url: 'https://a2ui.org/help' } } },
        },
        { id: 'g', component: 'Text', text: 'Help' },
        {
          id: 'bad',
          component: 'Button',
          child: 'b',
          action: { functionCall: { call: 'openUrl', args: { url: 'javascript:alert(1)' } } },
        },
        { id: 'b', component: 'Text', text: 'Bad' },
      ]),
      {},
      { openUrl: (url) => opened.push(url) },
    );
    expect(opened).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Help' }));
    fireEvent.click(screen.getByRole('button', { name: 'Bad' }));
    await flush();
    expect(opened).toEqual(['https://a2ui.org/help']);
    expect(test.sent).toEqual([]);
  });

  it('hands send failures to onActionError', async () => {
    const onActionError = vi.fn();
    // No transport: sending the action fails.
    const broken = new A2uiClient();
    broken.process(
      surface([
        { id: 'root', component: 'Button', child: 't', action: { event: { name: 'go' } } },
        { id: 't', component: 'Text', text: 'Go' },
      ]),
    );
    render(<A2UIRenderer client={broken} onActionError={onActionError} />);
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    await flush();
    expect(onActionError).toHaveBeenCalledTimes(1);
    expect(onActionError.mock.calls[0]![1]).toEqual({
      surfaceId: 's',
      componentId: 'root',
      scope: '/',
    });
  });
});

describe('strings', () => {
  it('can be localised', () => {
    const { view } = renderMessages(
      surface([{ id: 'root', component: 'Column', children: ['nope'] }]),
      {
        strings: { loading: 'Lädt…' },
      },
    );
    expect(within(view.container).getByText('Lädt…')).toBeTruthy();
  });
});

describe('server rendering', () => {
  it('renders to a string (getServerSnapshot everywhere, no effects needed)', async () => {
    const { renderToString } = await import('react-dom/server');
    const test = createTestClient();
    test.client.process(
      surface(
        [
          { id: 'root', component: 'Column', children: ['title', 'field'] },
          { id: 'title', component: 'Text', text: { path: '/title' }, variant: 'h1' },
          { id: 'field', component: 'TextField', label: 'Name', value: { path: '/name' } },
        ],
        { title: 'Server side', name: 'Ada' },
      ),
    );
    const html = renderToString(<A2UIRenderer client={test.client} />);
    expect(html).toContain('Server side</h1>');
    expect(html).toContain('value="Ada"');
  });
});
