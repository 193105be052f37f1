import { A2uiClient, BASIC_CATALOG_ID, type ServerMessage } from '@a2ui-ts/core';
import { HttpAgent } from '@ag-ui/client';
import { expect, it } from 'vitest';
import { startTestServer } from '../test/harness.js';
import { connectAgUi } from './client/connect-agui.js';

const surface: ServerMessage[] = [
  { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 's',
      components: [{ id: 'root', component: 'Text', text: { path: '/t' } }],
    },
  },
  { version: 'v0.9', updateDataModel: { surfaceId: 's', path: '/t', value: 'hi' } },
];

for (const mode of ['state', 'activity', 'tool-result'] as const) {
  it(`smoke ${mode}`, async () => {
    const server = await startTestServer({
      mode,
      agent: {
        onConnect: (c) => c.send(surface),
        onAction: (c, a) =>
          c.send({
            version: 'v0.9',
            updateDataModel: { surfaceId: 's', path: '/t', value: a.name },
          }),
      },
    });
    try {
      const agent = new HttpAgent({ url: server.url });
      const events: string[] = [];
      await agent.runAgent(
        {},
        {
          onEvent: ({ event }) => void events.push(event.type),
          onRunFailed: ({ error }) => {
            throw error;
          },
        },
      );
      console.log(
        mode,
        events,
        JSON.stringify(agent.state).slice(0, 300),
        JSON.stringify(agent.messages).slice(0, 300),
      );
      const client = new A2uiClient({ transport: connectAgUi({ url: server.url }) });
      void client.connect();
      await expect.poll(() => client.processor.getSurface('s')?.dataModel.get('/t')).toBe('hi');
      await client.dispatchAction?.('s', 'root').catch((e: unknown) => console.log('dispatch', e));
      await client.send({
        version: 'v0.9',
        action: {
          name: 'clicked',
          surfaceId: 's',
          sourceComponentId: 'root',
          timestamp: new Date().toISOString(),
          context: {},
        },
      });
      expect(client.processor.getSurface('s')?.dataModel.get('/t')).toBe('clicked');
      await client.close();
      console.log(server.agentErrors);
    } finally {
      await server.close();
    }
  });
}
