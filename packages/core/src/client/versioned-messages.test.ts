/**
 * The client writes actions and errors in the version of the surface concerned (issue 19).
 */
import { describe, expect, it } from 'vitest';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { V1_0_BASIC_CATALOG_ID } from '../versions/v1-0-catalogs.js';
import { A2uiClient } from './a2ui-client.js';
import { createRecordingTransport } from './test-recording-transport.js';

const button = {
  id: 'root',
  component: 'Button',
  child: 'label',
  action: { event: { name: 'go', context: { n: { path: '/n' } }, userMessage: { path: '/said' } } },
};
const label = { id: 'label', component: 'Text', text: 'Go' };

describe('versioned renderer→agent messages', () => {
  it('sends a v1.0 action with its resolved userMessage', async () => {
    const transport = createRecordingTransport();
    const client = new A2uiClient({ transport });
    const { errors } = client.process({
      version: 'v1.0',
      createSurface: {
        surfaceId: 's',
        catalogId: V1_0_BASIC_CATALOG_ID,
        components: [button, label],
        dataModel: { n: 1, said: 'Going' },
      },
    });
    expect(errors).toEqual([]);
    expect(await client.dispatchAction('s', 'root')).toBe(true);
    expect(transport.sent[0]!.message).toEqual({
      version: 'v1.0',
      action: {
        name: 'go',
        surfaceId: 's',
        sourceComponentId: 'root',
        timestamp: expect.any(String),
        context: { n: 1 },
        userMessage: 'Going',
      },
    });
  });

  it('sends a v0.9.1 action in v0.9.1 shape, without userMessage', async () => {
    const transport = createRecordingTransport();
    const client = new A2uiClient({ transport });
    client.process([
      { version: 'v0.9.1', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
      {
        version: 'v0.9.1',
        updateComponents: {
          surfaceId: 's',
          components: [{ ...button, action: { event: { name: 'go' } } }, label],
        },
      },
    ]);
    expect(await client.dispatchAction('s', 'root')).toBe(true);
    expect(transport.sent[0]!.message).toEqual({
      version: 'v0.9.1',
      action: expect.not.objectContaining({ userMessage: expect.anything() }),
    });
  });

  it('reports errors to the agent in the shape of their surface’s version', async () => {
    const transport = createRecordingTransport();
    const client = new A2uiClient({ transport });
    void client.connect();
    client.process([
      { version: 'v1.0', createSurface: { surfaceId: 'new', catalogId: V1_0_BASIC_CATALOG_ID } },
      { version: 'v1.0', updateDataModel: { surfaceId: 'new', path: '/x' } },
      { version: 'v0.9', updateDataModel: { surfaceId: 'old', path: '/x', value: 1 } },
    ]);
    await expect.poll(() => transport.sent.length).toBe(2);
    expect(transport.sent.map((sent) => sent.message)).toEqual([
      {
        version: 'v1.0',
        error: expect.objectContaining({
          code: 'VALIDATION_FAILED',
          surfaceId: 'new',
          path: '/updateDataModel/value',
        }),
      },
      {
        version: 'v0.9',
        error: expect.objectContaining({ code: 'SURFACE_NOT_FOUND', surfaceId: 'old' }),
      },
    ]);
  });
});
