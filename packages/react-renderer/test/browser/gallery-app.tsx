/**
 * The gallery page the browser suite drives: every example stream on one page, plus the XSS
 * surface, each with its own client. Bundled by esbuild in the test's setup.
 */
import {
  A2uiClient,
  type Catalog,
  type ClientError,
  type ClientMessage,
  type ClientTransport,
} from '@a2ui-ts/core';
import { EXAMPLE_STREAMS } from '@a2ui-ts/core/testing';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { A2UIRenderer } from '../../src/index.js';
import '../../src/styles.css';
import { V1_ACCESSIBILITY_STREAM } from '../v1-accessibility-stream.js';
import { XSS_STREAM } from '../xss-vectors.js';

interface GalleryState {
  ready: boolean;
  /** `?only=large-list`: list items in the page when the probe button's click handler ran. */
  itemsAtClick: number[];
  /**
   * `?hold`: the surfaces mount 32 children per commit (`mountSliceMs: 0`) and no further slice
   * until this runs (then a slice per task), so a test sees a surface mid-mount on any machine.
   * `?hold=default`: the same with the default `mountSliceMs`.
   */
  releaseMounts(): void;
  sent: ClientMessage[];
  errors: ClientError[];
  opened: string[];
}

declare global {
  interface Window {
    __gallery: GalleryState;
  }
}

const params = new URLSearchParams(location.search);
const only = params.get('only');

/** The renderer options of `?hold`: slices wait in `held` until `releaseMounts()`. */
const held: Array<() => void> | null = params.has('hold') ? [] : null;
let released = false;
const holdOptions =
  held === null
    ? {}
    : {
        ...(params.get('hold') === 'default' ? {} : { mountSliceMs: 0 }),
        scheduleMount(mount: () => void) {
          if (released) setTimeout(mount, 0);
          else held.push(mount);
        },
      };

/** `?headings=3`: the renderer's `minHeadingLevel`, under the page's h1 and the sections' h2. */
const headings = params.get('headings');
const headingOptions = headings === null ? {} : { minHeadingLevel: Number(headings) };

const state: GalleryState = {
  ready: false,
  itemsAtClick: [],
  releaseMounts() {
    released = true;
    for (const mount of held?.splice(0) ?? []) setTimeout(mount, 0);
  },
  sent: [],
  errors: [],
  opened: [],
};
window.__gallery = state;

function createClient(catalogs?: readonly Catalog[]): A2uiClient {
  const transport: ClientTransport = {
    async *events() {},
    async send(message) {
      state.sent.push(message);
    },
    async close() {},
  };
  const client = new A2uiClient({
    transport,
    openUrl: (url) => state.opened.push(url),
    ...(catalogs ? { catalogs } : {}),
  });
  client.processor.onError((error) => state.errors.push(error));
  return client;
}

interface Entry {
  readonly id: string;
  readonly title: string;
  readonly messages: readonly unknown[];
  readonly catalogs?: readonly Catalog[];
}
const BASIC_CATALOG = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';

/** createSurface, updateComponents and (when given) updateDataModel for one v0.9 surface. */
function streamOf(surfaceId: string, components: unknown[], value?: unknown): unknown[] {
  return [
    { version: 'v0.9', createSurface: { surfaceId, catalogId: BASIC_CATALOG } },
    { version: 'v0.9', updateComponents: { surfaceId, components } },
    ...(value === undefined ? [] : [{ version: 'v0.9', updateDataModel: { surfaceId, value } }]),
  ];
}

/**
 * Items of the large list: the template cap (`maxTemplateItems`). Each is one Text, so the
 * surface (5,001 instances) stays under `maxRenderedComponents` and every item renders.
 */
const LARGE_LIST_ITEMS = 5000;

/** A v0.9 surface whose List template renders {@link LARGE_LIST_ITEMS} items. */
const LARGE_LIST_STREAM = streamOf(
  'large',
  [
    { id: 'root', component: 'List', children: { componentId: 'row', path: '/items' } },
    { id: 'row', component: 'Text', text: { path: 'name' } },
  ],
  {
    items: Array.from({ length: LARGE_LIST_ITEMS }, (_, index) => ({ name: `Item ${index + 1}` })),
  },
);

/**
 * 100 lists of 100 items, each list a template item of the outer List: 10,101 instances, so the
 * surface stops at the `maxRenderedComponents` cap (10,000) with the last cells not rendered.
 */
const NESTED_LIST_STREAM = streamOf(
  'nested',
  [
    { id: 'root', component: 'List', children: { componentId: 'group', path: '/groups' } },
    { id: 'group', component: 'List', children: { componentId: 'cell', path: 'cells' } },
    { id: 'cell', component: 'Text', text: { path: 'name' } },
  ],
  {
    groups: Array.from({ length: 100 }, (_, group) => ({
      cells: Array.from({ length: 100 }, (_, cell) => ({ name: `${group + 1}.${cell + 1}` })),
    })),
  },
);

/**
 * No template: four levels of Columns naming their child ten times, 11,111 instances of five
 * components, so the surface stops at the `maxRenderedComponents` cap (10,000).
 */
const FAN_OUT_STREAM = streamOf('fan-out', [
  ...['root', 'a', 'b', 'c'].map((id, level) => ({
    id,
    component: 'Column',
    children: Array.from({ length: 10 }, () => ['a', 'b', 'c', 'leaf'][level]),
  })),
  { id: 'leaf', component: 'Text', text: 'Leaf' },
]);

/**
 * A Slider under a dark agent colour (the demo's booking theme): Chromium paints a native range's
 * unfilled track white whenever its accent colour is dark, in either scheme.
 */
const SLIDER_THEME_STREAM = [
  {
    version: 'v0.9',
    createSurface: {
      surfaceId: 'slider-theme',
      catalogId: BASIC_CATALOG,
      theme: { primaryColor: '#b45309' },
    },
  },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'slider-theme',
      components: [
        {
          id: 'root',
          component: 'Slider',
          label: 'Party size',
          min: 0,
          max: 10,
          value: { path: '/size' },
        },
      ],
    },
  },
  { version: 'v0.9', updateDataModel: { surfaceId: 'slider-theme', value: { size: 3 } } },
];

/** A button outside any surface: whether the page answers input while a large list mounts. */
function InputProbe() {
  const [clicks, setClicks] = useState(0);
  return (
    <button
      type="button"
      id="probe"
      onClick={() => {
        state.itemsAtClick.push(document.querySelectorAll('[data-a2ui-id="row"]').length);
        setClicks((count) => count + 1);
      }}
    >
      Clicked {clicks}
    </button>
  );
}

/** Sections shown only when asked for by name (`?only=`), not on the full gallery. */
const ON_REQUEST: readonly Entry[] = [
  { id: 'large-list', title: 'Large list', messages: LARGE_LIST_STREAM },
  { id: 'nested-list', title: 'Nested lists', messages: NESTED_LIST_STREAM },
  { id: 'fan-out', title: 'Fan-out', messages: FAN_OUT_STREAM },
  { id: 'slider-theme', title: 'Slider in an agent colour', messages: SLIDER_THEME_STREAM },
  {
    id: 'v1-accessibility',
    title: 'v1.0 accessibility',
    messages: V1_ACCESSIBILITY_STREAM,
  },
];
const entries: readonly Entry[] = [
  ...EXAMPLE_STREAMS.map((stream) => ({
    id: `ex-${stream.file.replace(/\.json$/, '')}`,
    title: stream.name,
    messages: stream.messages as unknown[],
  })),
  { id: 'xss', title: 'XSS vectors', messages: XSS_STREAM },
  ...ON_REQUEST.filter((entry) => entry.id === only),
].filter((entry) => only === null || entry.id === only);

// The bench reads these marks to tell core applying the streams apart from the rest of the
// page's first task.
performance.mark('gallery-streams-start');
const sections = entries.map((entry) => {
  const client = createClient(entry.catalogs);
  client.process(entry.messages);
  return { ...entry, client };
});
performance.mark('gallery-streams-applied');

function Gallery() {
  return (
    <main>
      <h1>A2UI gallery</h1>
      {only === 'large-list' ? <InputProbe /> : null}
      {sections.map((section) => (
        <section
          key={section.id}
          id={section.id}
          aria-labelledby={`${section.id}-title`}
          className="gallery-section"
        >
          <h2 id={`${section.id}-title`}>{section.title}</h2>
          <A2UIRenderer client={section.client} {...holdOptions} {...headingOptions} />
        </section>
      ))}
    </main>
  );
}

createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <Gallery />
  </StrictMode>,
);
// Where the page's first task (script, the streams applied by core) ends: the bench tells the
// rendering tasks after it apart from it.
performance.mark('gallery-script-end');
// Rendering commits after the first paint task; flag readiness once every surface mounted all its
// children (a slice per commit, `mountSliceMs`), or after the first commit when slices are held.
const markReady = () => {
  if (held === null && document.querySelector('.a2ui-surface[aria-busy]')) {
    setTimeout(markReady, 10);
    return;
  }
  state.ready = true;
};
requestAnimationFrame(() => {
  setTimeout(markReady, 0);
});
