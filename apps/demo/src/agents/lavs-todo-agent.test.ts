/**
 * The LLM agent and the todo surface over one LAVS service: the demo's agents built as the server
 * builds them, a mocked OpenAI-compatible model (a real HTTP server) calling `lavs_addTodo`, and
 * the todo surface of another client showing the todo the model added.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { afterEach, expect, it } from 'vitest';
import { connectTestClient, type TestClient } from '../test-support/connect-test-client.js';
import {
  type MockChatModel,
  renderReply,
  startMockChatModel,
  toolReply,
} from '../test-support/mock-chat-model.js';
import { createDemoAgents } from './create-demo-agents.js';
import { LLM_PROMPT_SURFACE_ID } from './llm/llm-agent.js';

const v = 'v0.9' as const;
const clients: TestClient[] = [];
let mock: MockChatModel | undefined;
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await mock?.close();
});

it('lets the LLM agent add a todo through the service, which the todo surface shows', async () => {
  mock = await startMockChatModel([
    toolReply('lavs_addTodo', { text: 'Buy milk' }, 'Adding it.'),
    renderReply([
      { version: v, createSurface: { surfaceId: 'done', catalogId: BASIC_CATALOG_ID } },
      {
        version: v,
        updateComponents: {
          surfaceId: 'done',
          components: [{ id: 'root', component: 'Text', text: 'Added "Buy milk".' }],
        },
      },
    ]),
  ]);
  const todoDir = await mkdtemp(join(tmpdir(), 'demo-todos-'));
  const agents = createDemoAgents({ env: mock.env, todoDir });
  const surface = await connectTestClient(agents.find((agent) => agent.id === 'todos')!.agent);
  clients.push(surface);
  const llm = await connectTestClient(agents.find((agent) => agent.id === 'llm')!.agent);
  clients.push(llm);

  await llm.until(
    () =>
      llm.client.processor.getSurface(LLM_PROMPT_SURFACE_ID)?.components.has('agent-submit') ===
      true,
    'the prompt box',
  );
  llm.client.processor.getSurface(LLM_PROMPT_SURFACE_ID)!.dataModel.set('/prompt', 'Add milk');
  await llm.client.dispatchAction(LLM_PROMPT_SURFACE_ID, 'agent-submit');
  await surface.until(
    () => JSON.stringify(surface.data('lavs-todo-manager', '/items')).includes('"text":"Buy milk"'),
    'the todo the model added, on the todo surface',
  );
  const tools = mock.server.requests[0]!.body.tools.map(
    (tool: { function: { name: string } }) => tool.function.name,
  );
  expect(tools).toEqual(
    expect.arrayContaining([
      'lavs_listTodos',
      'lavs_addTodo',
      'lavs_toggleTodo',
      'lavs_deleteTodo',
    ]),
  );
  expect(JSON.parse(readFileSync(join(todoDir, 'data/todos.json'), 'utf8'))).toEqual([
    expect.objectContaining({ id: 1, text: 'Buy milk', done: false }),
  ]);
});
