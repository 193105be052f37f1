/**
 * A surface created by a v0.8 agent answers in v0.8: `userAction` for actions, `error` for errors.
 */
import { describe, expect, it } from 'vitest';
import { A2uiClient } from './a2ui-client.js';
import { createRecordingTransport } from './test-recording-transport.js';

const v08Stream = [
  { beginRendering: { surfaceId: 'old', root: 'go' } },
  { dataModelUpdate: { surfaceId: 'old', contents: [{ key: 'who', valueString: 'Ann' }] } },
  {
    surfaceUpdate: {
      surfaceId: 'old',
      components: [
        {
          id: 'go',
          component: {
            Button: {
              child: 'label',
              action: {
                name: 'greet',
                context: [
                  { key: 'who', value: { path: '/who' } },
                  { key: 'n', value: { literalNumber: 2 } },
                ],
              },
            },
          },
        },
        { id: 'label', component: { Text: { text: { literalString: 'Hi' } } } },
      ],
    },
  },
];

describe('a v0.8 surface', () => {
  it('sends actions as v0.8 userAction', async () => {
    const transport = createRecordingTransport();
    const client = new A2uiClient({ transport });
    expect(client.process(v08Stream).errors).toEqual([]);
    expect(await client.dispatchAction('old', 'go')).toBe(true);
    const [sent] = transport.sent;
    expect(sent?.message).toEqual({
      userAction: {
        name: 'greet',
        surfaceId: 'old',
        sourceComponentId: 'go',
        timestamp: expect.any(String),
        context: { who: 'Ann', n: 2 },
      },
    });
  });

  it('sends them as v0.9 actions over a transport that carries v0.9 client messages only', async () => {
    const transport = createRecordingTransport(['v0.9']);
    const client = new A2uiClient({ transport });
    expect(client.process(v08Stream).errors).toEqual([]);
    expect(await client.dispatchAction('old', 'go')).toBe(true);
    expect(transport.sent[0]?.message).toEqual({
      version: 'v0.9',
      action: {
        name: 'greet',
        surfaceId: 'old',
        sourceComponentId: 'go',
        timestamp: expect.any(String),
        context: { who: 'Ann', n: 2 },
      },
    });
  });

  it('reports an error on the surface as a v0.8 error message, without a version', async () => {
    const transport = createRecordingTransport();
    const client = new A2uiClient({ transport });
    void client.connect();
    expect(client.process(v08Stream).errors).toEqual([]);
    const { errors } = client.process({
      surfaceUpdate: {
        surfaceId: 'old',
        components: [{ id: 'label', component: { Blink: { text: { literalString: 'x' } } } }],
      },
    });
    expect(errors).toHaveLength(1);
    await expect.poll(() => transport.sent.length).toBe(1);
    expect(transport.sent[0]?.message).toEqual({
      error: expect.objectContaining({ code: errors[0]!.code, surfaceId: 'old' }),
    });
    expect(transport.sent[0]?.message).not.toHaveProperty('version');
    // The surface is as it was: the label still reads "Hi".
    const label = client.processor.getSurface('old')?.components.get('label');
    expect([label?.type, label?.properties.text]).toEqual(['Text', 'Hi']);
  });
});
