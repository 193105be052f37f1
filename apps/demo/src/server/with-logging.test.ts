import { A2uiClient, createInMemoryTransport } from '@a2ui-ts/core';
import { describe, expect, it } from 'vitest';
import { withLogging } from './with-logging.js';

describe('withLogging', () => {
  it('logs and passes user input on to the agent (AG-UI and A2A text reaches demo agents)', async () => {
    const heard: string[] = [];
    const logs: Array<{ event: string; fields?: Record<string, unknown> }> = [];
    const agent = withLogging(
      { onInput: (_connection, input) => void heard.push(input.text ?? '') },
      (event, fields) => logs.push({ event, fields }),
      { agent: 'test', transport: 'in-memory' },
    );
    const transport = createInMemoryTransport({ agent });
    void (async () => {
      for await (const _event of transport.events());
    })();
    await transport.send(
      {
        version: 'v0.9',
        error: { code: 'CUSTOM', surfaceId: 's', message: 'opens the connection' },
      },
      { a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [] } } },
    );
    await transport.input({ text: 'hello' });
    expect(heard).toEqual(['hello']);
    expect(logs.find((line) => line.event === 'input')?.fields).toMatchObject({
      agent: 'test',
      transport: 'in-memory',
      text: 'hello',
    });
    await transport.close();
  });

  it('keeps the agent functions renderers call (v1.0 callAgentFunction)', async () => {
    const functions = [{ name: 'suggest', handler: () => ['Lyon'] }];
    const agent = withLogging({ functions }, () => {}, { agent: 'test', transport: 'in-memory' });
    expect(agent.functions).toBe(functions);
    const client = new A2uiClient({ transport: createInMemoryTransport({ agent }) });
    void client.connect().catch(() => {});
    await expect(client.callAgentFunction('s', { call: 'suggest', args: {} })).resolves.toEqual([
      'Lyon',
    ]);
    await client.close();
  });
});
