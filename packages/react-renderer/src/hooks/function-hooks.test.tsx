/**
 * useAgentFunction and useRendererFunction against a real session host (the in-memory transport:
 * messages cross as JSON text, the host's exactly-once and turn rules apply).
 */
import {
  A2uiClient,
  type A2uiError,
  BASIC_CATALOG_ID,
  type Connection,
  createInMemoryTransport,
} from '@a2ui-ts/core';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { A2UIProvider, useAgentFunction, useRendererFunction } from '../index.js';

const clients: A2uiClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** A client connected to an agent with `suggestNames`, and the agent's connection. */
async function connect(): Promise<{ client: A2uiClient; connection: Connection }> {
  let resolve!: (connection: Connection) => void;
  const connected = new Promise<Connection>((done) => {
    resolve = done;
  });
  const transport = createInMemoryTransport({
    agent: {
      functions: [{ name: 'suggestNames', handler: ({ prefix }) => [`${prefix}a`, `${prefix}am`] }],
      onConnect(connection) {
        connection.send({
          version: 'v0.9',
          createSurface: { surfaceId: 'form', catalogId: BASIC_CATALOG_ID },
        });
        resolve(connection);
      },
    },
  });
  const client = new A2uiClient({ transport });
  clients.push(client);
  void client.connect().catch(() => {});
  return { client, connection: await connected };
}

const zoneOf = (connection: Connection) =>
  connection.callRendererFunction('getTimeZone', {}, { catalogId: BASIC_CATALOG_ID });
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: A2uiError) => error.data?.code ?? error.code,
  );

describe('useRendererFunction', () => {
  it('answers agents while mounted with the latest implementation, and is gone after unmount', async () => {
    const { client, connection } = await connect();
    // biome-ignore lint/correctness/noComponentHookFactories: test fixture closing over the test's state.
    function Zone({ zone }: { zone: string }) {
      useRendererFunction('getTimeZone', () => zone);
      return null;
    }
    const view = render(
      <A2UIProvider client={client}>
        <Zone zone="Europe/Berlin" />
      </A2UIProvider>,
    );
    await expect(zoneOf(connection)).resolves.toBe('Europe/Berlin');
    view.rerender(
      <A2UIProvider client={client}>
        <Zone zone="Asia/Tokyo" />
      </A2UIProvider>,
    );
    await expect(zoneOf(connection)).resolves.toBe('Asia/Tokyo');
    view.unmount();
    expect(await codeOf(zoneOf(connection))).toBe('INVALID_FUNCTION_CALL');
  });

  it('refuses a requiresUserActivation function without a gesture, and a rendererOnly one', async () => {
    const { client, connection } = await connect();
    const opened: string[] = [];
    // biome-ignore lint/correctness/noComponentHookFactories: test fixture closing over the test's state.
    function Functions() {
      useRendererFunction('openTab', ({ url }) => void opened.push(String(url)), {
        requiresUserActivation: true,
      });
      useRendererFunction('getTimeZone', () => 'UTC', { allowedCallers: 'rendererOnly' });
      return null;
    }
    render(
      <A2UIProvider client={client}>
        <Functions />
      </A2UIProvider>,
    );
    const open = () =>
      connection.callRendererFunction(
        'openTab',
        { url: 'https://example.com' },
        {
          catalogId: BASIC_CATALOG_ID,
        },
      );
    expect(await codeOf(open())).toBe('INVALID_FUNCTION_CALL');
    // A script's event is no gesture (jsdom's events are never trusted, as a page script's are not).
    fireEvent.pointerDown(window);
    expect(await codeOf(open())).toBe('INVALID_FUNCTION_CALL');
    client.noteUserActivation();
    expect(await codeOf(open())).toBe('resolved');
    expect(opened).toEqual(['https://example.com']);
    expect(await codeOf(zoneOf(connection))).toBe('INVALID_FUNCTION_CALL');
  });
});

describe('useAgentFunction', () => {
  it('calls the agent with the promise API of client.callAgentFunction', async () => {
    const { client } = await connect();
    // biome-ignore lint/correctness/noComponentHookFactories: test fixture closing over the test's state.
    function Suggest() {
      const suggest = useAgentFunction('suggestNames', { surfaceId: 'form' });
      const missing = useAgentFunction('nope', { surfaceId: 'form' });
      const [text, setText] = useState('');
      const run = async () => {
        const names = (await suggest({ prefix: 'Ad' })) as string[];
        setText(`${names.join(',')}|${await codeOf(missing())}`);
      };
      return (
        <button type="button" onClick={() => void run()}>
          {text || 'suggest'}
        </button>
      );
    }
    render(
      <A2UIProvider client={client}>
        <Suggest />
      </A2UIProvider>,
    );
    act(() => screen.getByRole('button').click());
    await waitFor(() =>
      expect(screen.getByRole('button').textContent).toBe('Ada,Adam|UNKNOWN_FUNCTION'),
    );
  });
});
