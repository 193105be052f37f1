/**
 * Test helpers: a client whose sent messages are recorded, and a render of a message stream.
 */
import {
  A2uiClient,
  type A2uiClientOptions,
  type ClientError,
  type ClientMessage,
  type ClientTransport,
} from '@a2ui-ts/core';
import { act, type RenderResult, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { A2UIRenderer, type A2UIRendererProps } from '../src/index.js';

export interface TestClient {
  client: A2uiClient;
  /** Client messages sent through the transport. */
  sent: ClientMessage[];
  /** Errors the processor reported (validation, binding, renderer). */
  errors: ClientError[];
  /** Applies server messages inside act(). */
  process(input: unknown): void;
}

/** A client with an in-process transport that records what it sends and never receives. */
export function createTestClient(options: A2uiClientOptions = {}): TestClient {
  const sent: ClientMessage[] = [];
  const transport: ClientTransport = {
    async *events() {},
    async send(message) {
      sent.push(message);
    },
    async close() {},
  };
  const client = new A2uiClient({ transport, ...options });
  const errors: ClientError[] = [];
  client.processor.onError((error) => errors.push(error));
  return {
    client,
    sent,
    errors,
    process(input) {
      act(() => {
        client.process(input);
      });
    },
  };
}

/** Renders `<A2UIRenderer>` for a fresh test client after applying `messages`. */
export function renderMessages(
  messages: unknown,
  props: Omit<A2UIRendererProps, 'client'> = {},
  clientOptions: A2uiClientOptions = {},
): TestClient & { view: RenderResult; rerender(element: ReactElement): void } {
  const test = createTestClient(clientOptions);
  test.client.process(messages);
  const view = render(<A2UIRenderer client={test.client} {...props} />);
  return { ...test, view, rerender: view.rerender };
}

/** Let pending microtasks (deferred error reports, action promises) run. */
export async function flush(): Promise<void> {
  await act(async () => {
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/**
 * Lets the surfaces in `container` finish mounting: runs their slices (`mountSliceMs`, each
 * scheduled as a task) until no surface is `aria-busy`.
 */
export async function settle(container: HTMLElement): Promise<void> {
  await flush();
  while (container.querySelector('.a2ui-surface[aria-busy]')) await flush();
}

export const BASIC = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';

/** createSurface + updateComponents (+ optional data) for surface `s`. */
export function surface(
  components: Array<Record<string, unknown>>,
  data?: unknown,
  surfaceId = 's',
): unknown[] {
  const messages: unknown[] = [
    { version: 'v0.9', createSurface: { surfaceId, catalogId: BASIC } },
    { version: 'v0.9', updateComponents: { surfaceId, components } },
  ];
  if (data !== undefined)
    messages.push({ version: 'v0.9', updateDataModel: { surfaceId, value: data } });
  return messages;
}

/** One updateDataModel message. */
export function setData(path: string, value: unknown, surfaceId = 's'): unknown {
  return { version: 'v0.9', updateDataModel: { surfaceId, path, value } };
}
