/**
 * v1.0 surfaces: the basic catalog's v1.0 changes (Text variants, TextField placeholder and no
 * validationRegexp, Video posterUrl, Slider steps), ValidationResult checks with their severity,
 * accessibility `live`/`hidden` on every component, and composition constraints
 * (`UNALLOWED_PARENT` / `UNALLOWED_CHILD`) shown as a placeholder and reported once.
 */
import {
  basicCatalog,
  type Catalog,
  createCatalog,
  INDEX_OUTSIDE_TEMPLATE_MESSAGE,
  V1_0_BASIC_CATALOG_ID,
} from '@a2ui-ts/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { flush, renderMessages, surface } from '../../test/test-client.js';
import { BASIC_COMPONENTS } from '../components/basic-components.js';
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import { ANY_CATALOG } from '../registry/component-registry.js';
import { createComponentRegistry } from '../registry/create-component-registry.js';

/** A v1.0 `createSurface` with inline components and data model (v1.0 §createSurface). */
function v1Surface(
  components: Array<Record<string, unknown>>,
  data: unknown,
  catalogId: string,
): unknown[] {
  return [
    {
      version: 'v1.0',
      createSurface: {
        surfaceId: 's',
        catalogId,
        components,
        ...(data === undefined ? {} : { dataModel: data }),
      },
    },
  ];
}

/** A custom container: renders its `children`. */
function Box({ id, props, node }: A2uiComponentProps<{ children?: unknown }>) {
  return <div data-a2ui-id={id}>{node.renderChildren(props.children)}</div>;
}

const registry = createComponentRegistry().registerAll(ANY_CATALOG, {
  ...BASIC_COMPONENTS,
  RestrictedBox: Box,
  AppLayout: Box,
  ColumnHeader: Box,
});

function renderV1(components: Array<Record<string, unknown>>, data?: unknown) {
  return renderMessages(v1Surface(components, data, V1_0_BASIC_CATALOG_ID), { registry });
}

/**
 * A surface whose processor path does not check composition (a v0.9 surface of a catalog that
 * declares constraints): the renderer is the one that must catch a misplaced component.
 */
function renderWithCatalog(components: Array<Record<string, unknown>>, catalog: Catalog) {
  const messages = surface(components) as Array<Record<string, Record<string, unknown>>>;
  messages[0]!.createSurface!.catalogId = catalog.catalogId;
  return renderMessages(messages, { registry }, { catalogs: [catalog] });
}

const byId = (container: HTMLElement, id: string) =>
  container.querySelector(`[data-a2ui-id="${id}"]`) as HTMLElement;

describe('v1.0 basic catalog changes', () => {
  it('a v1.0 surface shows h1–h5 as body text; a v0.9 surface keeps its headings', () => {
    const title = [{ id: 'root', component: 'Text', text: 'Title', variant: 'h1' }];
    // Core refuses h1 on a v1.0 surface (its v1.0 basic catalog schema has no headings)...
    const refused = renderV1(title);
    expect(refused.client.processor.getSurface('s')).toBeUndefined();
    refused.view.unmount();
    // ...and a client that skips validation still never gets a heading from the renderer.
    const v1 = renderMessages(
      v1Surface(title, undefined, V1_0_BASIC_CATALOG_ID),
      { registry },
      {
        validate: false,
      },
    );
    const text = byId(v1.view.container, 'root');
    expect(text.tagName).toBe('SPAN');
    expect(text.className).toContain('a2ui-text-body');
    expect(screen.queryByRole('heading')).toBeNull();
    v1.view.unmount();
    renderMessages(surface([{ id: 'root', component: 'Text', text: 'Title', variant: 'h1' }]));
    expect(screen.getByRole('heading', { level: 1, name: 'Title' })).toBeTruthy();
  });

  it('TextField shows its placeholder (never as its name) and ignores validationRegexp', async () => {
    const user = userEvent.setup();
    renderV1(
      [
        {
          id: 'root',
          component: 'TextField',
          label: 'Zip',
          placeholder: { path: '/hint' },
          value: { path: '/zip' },
          validationRegexp: '^[0-9]{5}$',
        },
      ],
      { zip: '', hint: 'e.g. 12345' },
    );
    const input = screen.getByRole('textbox', { name: 'Zip' });
    expect(input.getAttribute('placeholder')).toBe('e.g. 12345');
    await user.type(input, '12a');
    expect(screen.queryByText('Invalid format')).toBeNull();
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('Video shows posterUrl after the URL policy', async () => {
    const test = renderV1([
      {
        id: 'root',
        component: 'Video',
        url: 'https://example.com/v.mp4',
        posterUrl: 'https://example.com/poster.jpg',
      },
    ]);
    const video = byId(test.view.container, 'root');
    expect(video.getAttribute('poster')).toBe('https://example.com/poster.jpg');
    const blocked = renderV1([
      {
        id: 'root',
        component: 'Video',
        url: 'https://example.com/v.mp4',
        posterUrl: 'javascript:alert(1)',
      },
    ]);
    expect(byId(blocked.view.container, 'root').hasAttribute('poster')).toBe(false);
    await flush();
    expect(blocked.errors.map((error) => error.code)).toEqual(['URL_BLOCKED']);
  });

  it('Slider divides its range into `steps`', () => {
    const test = renderV1([
      { id: 'root', component: 'Slider', label: 'Volume', min: 0, max: 10, value: 5, steps: 4 },
    ]);
    const slider = screen.getByRole('slider', { name: 'Volume' });
    expect(slider.getAttribute('step')).toBe('2.5');
    test.view.unmount();
    renderV1([{ id: 'root', component: 'Slider', label: 'Volume', min: 0, max: 10, value: 5 }]);
    expect(screen.getByRole('slider', { name: 'Volume' }).getAttribute('step')).toBe('1');
  });
});

describe('ValidationResult checks (v1.0)', () => {
  const field = (checkPath: string) => ({
    id: 'root',
    component: 'TextField',
    label: 'Card',
    value: { path: '/card' },
    checks: [{ condition: { path: checkPath }, message: 'Fallback message' }],
  });

  it('an error result shows its own message, marks the input invalid and blocks', () => {
    renderV1([field('/result')], {
      card: '4111',
      result: { valid: false, code: 'EXPIRED_CARD', message: 'The card has expired.' },
    });
    const input = screen.getByRole('textbox', { name: 'Card' });
    const message = screen.getByText('The card has expired.');
    expect(message.getAttribute('data-a2ui-severity')).toBe('error');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain(message.id);
  });

  it('a warning shows with its severity, said to screen readers, and does not mark it invalid', () => {
    const test = renderV1([field('/result')], {
      card: '4111',
      result: { valid: false, message: 'Unusual card number.', severity: 'warning' },
    });
    const input = screen.getByRole('textbox', { name: 'Card' });
    const message = byId(test.view.container, 'root').querySelector('.a2ui-field-message')!;
    expect(message.className).toContain('a2ui-field-message-warning');
    expect(message.getAttribute('data-a2ui-severity')).toBe('warning');
    expect(message.textContent).toBe('Warning: Unusual card number.');
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('a Button is blocked by an error result but not by an info one', () => {
    const button = (result: unknown) =>
      renderV1(
        [
          {
            id: 'root',
            component: 'Button',
            child: 't',
            action: { event: { name: 'go' } },
            checks: [{ condition: { path: '/result' } }],
          },
          { id: 't', component: 'Text', text: 'Go' },
        ],
        { result },
      );
    const blocked = button({ valid: false, message: 'Not yet.' });
    expect((screen.getByRole('button', { name: 'Go' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Not yet.')).toBeTruthy();
    blocked.view.unmount();
    button({ valid: false, message: 'Just so you know.', severity: 'info' });
    expect((screen.getByRole('button', { name: 'Go' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('accessibility live and hidden (v1.0)', () => {
  it('maps live to aria-live and a bound hidden to aria-hidden (plus inert) on the outermost element', () => {
    const test = renderV1(
      [
        { id: 'root', component: 'Column', children: ['status', 'art', 'card'] },
        { id: 'status', component: 'Text', text: 'Active', accessibility: { live: 'polite' } },
        {
          id: 'art',
          component: 'Icon',
          name: 'star',
          accessibility: { hidden: { path: '/decorative' } },
        },
        { id: 'card', component: 'Card', child: 'in', accessibility: { live: 'assertive' } },
        { id: 'in', component: 'Text', text: 'Inside' },
      ],
      { decorative: true },
    );
    const { container } = test.view;
    expect(byId(container, 'status').getAttribute('aria-live')).toBe('polite');
    expect(byId(container, 'card').getAttribute('aria-live')).toBe('assertive');
    const art = byId(container, 'art');
    expect(art.getAttribute('aria-hidden')).toBe('true');
    expect(art.hasAttribute('inert')).toBe(true);
    // Nothing the agent did not set: no aria-live="off", no aria-hidden on the others.
    expect(byId(container, 'root').hasAttribute('aria-live')).toBe(false);
    expect(byId(container, 'status').hasAttribute('aria-hidden')).toBe(false);
    test.process({
      version: 'v1.0',
      updateDataModel: { surfaceId: 's', path: '/decorative', value: false },
    });
    expect(art.getAttribute('aria-hidden')).toBe('false');
    expect(art.hasAttribute('inert')).toBe(false);
  });

  it('explicit attributes win over inferred ones: a named icon hidden, an unnamed one shown', () => {
    const test = renderV1([
      { id: 'root', component: 'Row', children: ['named', 'custom'] },
      { id: 'named', component: 'Icon', name: 'star', accessibility: { hidden: true } },
      {
        id: 'custom',
        component: 'Icon',
        name: { svgPath: 'M0 0L24 24' },
        accessibility: { hidden: false },
      },
    ]);
    expect(byId(test.view.container, 'named').getAttribute('aria-hidden')).toBe('true');
    expect(byId(test.view.container, 'custom').getAttribute('aria-hidden')).toBe('false');
  });

  it('hides an interactive component from the tab order as well', () => {
    const test = renderV1([
      {
        id: 'root',
        component: 'Button',
        child: 't',
        action: { event: { name: 'go' } },
        accessibility: { hidden: true },
      },
      { id: 't', component: 'Text', text: 'Go' },
    ]);
    const host = byId(test.view.container, 'root');
    expect(host.getAttribute('aria-hidden')).toBe('true');
    expect(host.hasAttribute('inert')).toBe(true);
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('@index in templates (v1.0)', () => {
  it('shows each template item its own index, in the item and its static children', async () => {
    const test = renderV1(
      [
        { id: 'root', component: 'List', children: { componentId: 'item', path: '/items' } },
        { id: 'item', component: 'Row', children: ['label', 'name'] },
        {
          id: 'label',
          component: 'Text',
          text: { call: 'formatString', args: { value: 'Item ${@index(offset: 1)}' } },
        },
        { id: 'name', component: 'Text', text: { path: 'name' } },
      ],
      { items: [{ name: 'Milk' }, { name: 'Eggs' }] },
    );
    const labels = [...test.view.container.querySelectorAll('[data-a2ui-id="label"]')];
    expect(labels.map((label) => label.textContent)).toEqual(['Item 1', 'Item 2']);
    expect(screen.getByText('Eggs')).toBeTruthy();
    test.process({
      version: 'v1.0',
      updateDataModel: { surfaceId: 's', path: '/items/2', value: { name: 'Tea' } },
    });
    expect(screen.getByText('Item 3')).toBeTruthy();
    await flush();
    expect(test.errors).toEqual([]);
  });

  it('gives a template nested in a template its own index, and a bare call the index itself', async () => {
    const test = renderV1(
      [
        { id: 'root', component: 'Column', children: { componentId: 'group', path: '/groups' } },
        { id: 'group', component: 'Row', children: { componentId: 'cell', path: 'cells' } },
        { id: 'cell', component: 'Text', text: { call: '@index' } },
      ],
      { groups: [{ cells: ['a', 'b', 'c'] }, { cells: ['d'] }] },
    );
    const groups = [...test.view.container.querySelectorAll('[data-a2ui-id="group"]')];
    expect(groups.map((group) => group.textContent)).toEqual(['012', '0']);
    await flush();
    expect(test.errors).toEqual([]);
  });

  it("resolves @index in an action's context to the clicked item", async () => {
    const user = userEvent.setup();
    const test = renderV1(
      [
        { id: 'root', component: 'List', children: { componentId: 'remove', path: '/items' } },
        {
          id: 'remove',
          component: 'Button',
          child: 'label',
          action: { event: { name: 'remove', context: { row: { call: '@index' } } } },
        },
        { id: 'label', component: 'Text', text: { path: 'name' } },
      ],
      { items: [{ name: 'Milk' }, { name: 'Eggs' }] },
    );
    await user.click(screen.getByRole('button', { name: 'Eggs' }));
    await flush();
    expect(test.sent).toHaveLength(1);
    expect((test.sent[0] as { action: { context: unknown } }).action.context).toEqual({ row: 1 });
  });

  it('is an EXPRESSION_ERROR outside a template, with the spec wording', async () => {
    const test = renderV1([{ id: 'root', component: 'Text', text: { call: '@index' } }]);
    await flush();
    expect(test.errors.map((error) => [error.code, error.message])).toEqual([
      ['EXPRESSION_ERROR', INDEX_OUTSIDE_TEMPLATE_MESSAGE],
    ]);
  });
});

describe('composition constraints (v1.0)', () => {
  const custom = (components: Record<string, Record<string, unknown>>): Catalog =>
    createCatalog({
      catalogId: 'https://example.com/custom',
      components: [...basicCatalog.components, ...Object.keys(components)],
      functions: basicCatalog.functions.values(),
      schema: { components },
    });

  it('shows UNALLOWED_PARENT as a placeholder, renders the rest, reports once', async () => {
    const catalog = custom({ ColumnHeader: { allowedParents: ['Column'] } });
    const test = renderWithCatalog(
      [
        { id: 'root', component: 'Row', children: ['h', 'ok'] },
        { id: 'h', component: 'ColumnHeader' },
        { id: 'ok', component: 'Text', text: 'Still here' },
      ],
      catalog,
    );
    const placeholder = byId(test.view.container, 'h');
    expect(placeholder.getAttribute('data-a2ui-unallowed')).toBe('UNALLOWED_PARENT');
    expect(placeholder.textContent).toBe('"h" (ColumnHeader) is not allowed here.');
    expect(screen.getByText('Still here')).toBeTruthy();
    test.process({
      version: 'v0.9',
      updateComponents: {
        surfaceId: 's',
        components: [{ id: 'ok', component: 'Text', text: 'Re-rendered' }],
      },
    });
    await flush();
    expect(test.errors).toEqual([
      {
        code: 'UNALLOWED_PARENT',
        surfaceId: 's',
        path: '',
        message:
          "Component 'h' (ColumnHeader) cannot be placed under parent 'root' (Row). Allowed parents: ['Column'].",
      },
    ]);
  });

  it('shows UNALLOWED_CHILD for a container, and checks root against the Surface container', async () => {
    const catalog = custom({
      RestrictedBox: { allowedChildren: ['Text'] },
      AppLayout: { allowedParents: ['Surface'] },
    });
    const test = renderWithCatalog(
      [
        { id: 'root', component: 'Column', children: ['box', 'layout'] },
        { id: 'box', component: 'Column', children: [] },
        { id: 'layout', component: 'AppLayout' },
      ],
      catalog,
    );
    expect(byId(test.view.container, 'layout').getAttribute('data-a2ui-unallowed')).toBe(
      'UNALLOWED_PARENT',
    );
    await flush();
    expect(test.errors.map((error) => error.message)).toEqual([
      "Component 'layout' (AppLayout) cannot be placed under parent 'root' (Column). Allowed parents: ['Surface'].",
    ]);
    const restricted = renderWithCatalog(
      [
        { id: 'root', component: 'RestrictedBox', children: ['t', 'v'] },
        { id: 't', component: 'Text', text: 'Allowed' },
        { id: 'v', component: 'Divider' },
      ],
      catalog,
    );
    expect(byId(restricted.view.container, 'v').getAttribute('data-a2ui-unallowed')).toBe(
      'UNALLOWED_CHILD',
    );
    await flush();
    expect(restricted.errors.map((error) => error.code)).toContain('UNALLOWED_CHILD');
    const top = renderWithCatalog([{ id: 'root', component: 'AppLayout' }], catalog);
    expect(byId(top.view.container, 'root')?.hasAttribute('data-a2ui-unallowed') ?? false).toBe(
      false,
    );
  });
});
