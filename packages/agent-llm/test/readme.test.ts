/**
 * The README runs as printed, from this package's folder: the quick-start server (port 0 instead
 * of 8787) with its provider settings pointing at a local mock of the provider (only the far end
 * is local), driven by a client that types a prompt; and the scripted-model test block.
 */
import { A2uiClient } from '@a2ui-ts/core';
import {
  readReadmeBlocks,
  runReadmeBlock,
  type StartedReadmeBlock,
  startReadmeBlock,
} from '@a2ui-ts/core/testing/node';
import { connectSseJsonRpc } from '@a2ui-ts/transport-sse-jsonrpc';
import { afterEach, expect, it } from 'vitest';
import { type MockLlmServer, startMockLlmServer } from '../src/testing/index.js';

const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));
const cwd = new URL('..', import.meta.url);

let server: StartedReadmeBlock | undefined;
let mock: MockLlmServer | undefined;
let client: A2uiClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.stop();
  await mock?.close();
});

it('marks every block that imports a package, so that each one runs here', () => {
  expect(readme.unmarked).toEqual([]);
});

it('runs the quick-start server: a prompt reaches the model with its instructions and tool', async () => {
  mock = await startMockLlmServer({
    wire: 'openai-chat',
    replies: [{ text: 'Which city?' }],
  });
  server = await startReadmeBlock(readme.block('quick-start'), {
    cwd,
    fileName: 'server.mts',
    ready: /^LLM agent on (http:\/\/\S+)$/,
    env: {
      PORT: '0', // the block runs unchanged: it takes its port from PORT
      A2UI_LLM_PROVIDER: 'openai-chat',
      A2UI_LLM_MODEL: 'mock-model',
      A2UI_LLM_API_KEY: 'sk-test',
      A2UI_LLM_BASE_URL: mock.baseUrl,
    },
  });
  expect(server.ready[1]).not.toMatch(/:8787\//);
  client = new A2uiClient({ transport: connectSseJsonRpc({ url: server.ready[1]! }) });
  void client.connect().catch(() => {});
  await client.until(
    () => client!.processor.getSurface('llm-agent')?.components.has('root') ?? false,
  );
  client.getDataContext('llm-agent').write('/prompt', 'Two nights in Lyon');
  await client.dispatchAction('llm-agent', 'agent-submit');
  const request = await mock.request(0);
  const body = request.body as {
    messages: Array<{ role: string; content: unknown }>;
    tools: Array<{ function: { name: string } }>;
  };
  expect(String(body.messages[0]!.content)).toContain('You help people plan a trip.');
  expect(JSON.stringify(body.messages)).toContain('Two nights in Lyon');
  expect(body.tools.map((entry) => entry.function.name)).toContain('searchHotels');
  await client.until(
    () => client!.processor.getSurface('llm-agent')?.dataModel.get('/reply') === 'Which city?',
  );
});

it('runs the scripted-model test block: the card the script renders reaches the client', async () => {
  const result = await runReadmeBlock(readme.block('scripted'), { cwd, fileName: 'scripted.mts' });
  expect(result).toMatchObject({ exitCode: 0, stdout: 'Sunny in Lyon\n' });
});
