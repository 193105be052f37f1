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
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { A2UIRenderer } from '../../src/index.js';
import '../../src/styles.css';
import { V1_ACCESSIBILITY_STREAM } from '../v1-accessibility-stream.js';
import { XSS_STREAM } from '../xss-vectors.js';

interface GalleryState {
  ready: boolean;
  sent: ClientMessage[];
  errors: ClientError[];
  opened: string[];
}

declare global {
  interface Window {
    __gallery: GalleryState;
  }
}

const state: GalleryState = { ready: false, sent: [], errors: [], opened: [] };
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

const params = new URLSearchParams(location.search);
const only = params.get('only');
interface Entry {
  readonly id: string;
  readonly title: string;
  readonly messages: readonly unknown[];
  readonly catalogs?: readonly Catalog[];
}
/** Sections shown only when asked for by name (`?only=`), not on the full gallery. */
const ON_REQUEST: readonly Entry[] = [
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

const sections = entries.map((entry) => {
  const client = createClient(entry.catalogs);
  client.process(entry.messages);
  return { ...entry, client };
});

function Gallery() {
  return (
    <main>
      <h1>A2UI gallery</h1>
      {sections.map((section) => (
        <section
          key={section.id}
          id={section.id}
          aria-labelledby={`${section.id}-title`}
          className="gallery-section"
        >
          <h2 id={`${section.id}-title`}>{section.title}</h2>
          <A2UIRenderer client={section.client} />
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
// Rendering commits synchronously after the first paint task; flag readiness after it.
requestAnimationFrame(() => {
  setTimeout(() => {
    state.ready = true;
  }, 0);
});
