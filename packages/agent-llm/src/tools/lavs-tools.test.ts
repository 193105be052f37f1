/**
 * A LAVS service's endpoints as the LLM agent's tools: the spec's todo-manager served for real
 * (`@a2ui-ts/lavs` on 127.0.0.1), its endpoints offered to a scripted model, which manages the
 * todos through them.
 */
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLavsRuntime, type LavsRuntime, loadManifest, serveLavs } from '@a2ui-ts/lavs';
import { createLavsClient } from '@a2ui-ts/lavs/client';
import { asSchema } from 'ai';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { connectClient } from '../../test/connect-client.js';
import { weatherCard } from '../../test/fixtures.js';
import { toolResults } from '../../test/prompt-reading.js';
import { createLlmAgent } from '../agent/create-llm-agent.js';
import { RENDER_TOOL_NAME } from '../catalog/render-tool-schema.js';
import { createScriptedModel, renderStep, scriptedStep } from '../testing/scripted-model.js';
import { createLavsTools, lavsServiceTools } from './lavs-tools.js';

const TODO_MANAGER = new URL('../../../lavs/examples/todo-manager/', import.meta.url).pathname;

let dir: string;
let runtime: LavsRuntime;
let server: Awaited<ReturnType<typeof serveLavs>>;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lavs-tools-'));
  await cp(TODO_MANAGER, dir, { recursive: true });
  runtime = createLavsRuntime(await loadManifest(join(dir, 'lavs.json')), { logger: () => {} });
  server = await serveLavs(runtime);
});
afterEach(() => server.close());

it("offers one tool per query and mutation of the manifest, with the endpoint's description", async () => {
  const tools = await createLavsTools({ url: server.url });
  const endpoints = runtime.manifest.endpoints.filter((e) => e.method !== 'subscription');
  expect(Object.keys(tools).sort()).toEqual(endpoints.map((e) => `lavs_${e.id}`).sort());
  expect(tools.lavs_addTodo!.description).toBe('Create a new todo');
  const local = await createLavsTools({ service: runtime });
  expect(Object.keys(local)).toEqual(Object.keys(tools));
  expect(Object.keys(lavsServiceTools(runtime))).toEqual(Object.keys(tools));
});

it("moves `#/types/…` references into the tool schema's own $defs", async () => {
  const types = { Todo: { type: 'object', properties: { id: { type: 'number' } } } };
  const tools = await createLavsTools({
    service: {
      manifest: {
        name: 'refs',
        endpoints: [{ id: 'put', method: 'mutation', schema: { input: { $ref: '#/types/Todo' } } }],
        types,
      },
      call: async () => null,
    },
  });
  expect(await asSchema(tools.lavs_put!.inputSchema).jsonSchema).toEqual({
    $ref: '#/$defs/Todo',
    $defs: types,
  });
});

it('lets the model add and toggle todos through the service, errors fed back to it', async () => {
  const tools = await createLavsTools({ url: server.url });
  const model = createScriptedModel([
    scriptedStep({
      toolCalls: [{ toolName: 'lavs_addTodo', input: { text: 'Buy milk' } }],
    }),
    scriptedStep({
      toolCalls: [
        { toolName: 'lavs_toggleTodo', input: { id: 1 } },
        { toolName: 'lavs_addTodo', input: { text: 42 } },
      ],
    }),
    renderStep(weatherCard()),
  ]);
  const test = await connectClient(createLlmAgent({ model, tools }));
  try {
    await test.transport.input({ text: 'Add "Buy milk" and mark it done' });
    await test.until(() => test.surfaceIds().includes('weather'));
    expect(model.calls[0]!.tools?.map((entry) => entry.name).sort()).toEqual([
      'lavs_addTodo',
      'lavs_deleteTodo',
      'lavs_listTodos',
      'lavs_toggleTodo',
      RENDER_TOOL_NAME,
    ]);
    expect(toolResults(model.calls[1]!.prompt)).toEqual([
      expect.objectContaining({
        toolName: 'lavs_addTodo',
        value: expect.objectContaining({ id: 1, text: 'Buy milk', done: false }),
      }),
    ]);
    const second = toolResults(model.calls[2]!.prompt).slice(-2);
    expect(second[0]).toMatchObject({
      toolName: 'lavs_toggleTodo',
      value: expect.objectContaining({ done: true }),
    });
    // The refusal reaches the model with its code and the JSON Pointer of what to correct.
    expect(second[1]).toMatchObject({
      type: 'error-text',
      value: expect.stringMatching(/^LAVS INVALID_PARAMS: .*"pointer":"\/text"/),
    });
    const onDisk = JSON.parse(await readFile(join(dir, 'data/todos.json'), 'utf8'));
    expect(onDisk).toEqual([expect.objectContaining({ id: 1, text: 'Buy milk', done: true })]);
  } finally {
    await test.close();
  }
});

it('refuses to start without a service, and reports a manifest it cannot fetch', async () => {
  await expect(createLavsTools({})).rejects.toMatchObject({ code: 'NOT_SUPPORTED' });
  await expect(createLavsTools({ url: `${server.url}/nowhere` })).rejects.toMatchObject({
    code: 'TRANSPORT_ERROR',
  });
});

it('calls the service through the LAVS client, and takes a manifest instead of fetching it', async () => {
  const client = createLavsClient({ url: server.url });
  const getManifest = vi.fn(client.getManifest);
  const call = vi.fn((endpoint: string, input?: unknown) => client.call(endpoint, input));
  const manifest = JSON.parse(await readFile(join(dir, 'lavs.json'), 'utf8'));
  const tools = await createLavsTools({
    client: { getManifest, call: call as typeof client.call },
    manifest,
  });
  expect(getManifest).not.toHaveBeenCalled();
  expect(Object.keys(tools)).toContain('lavs_addTodo');
  const added = await tools.lavs_addTodo!.execute!(
    { text: 'Buy milk' },
    {
      toolCallId: 'call-1',
      messages: [],
    },
  );
  expect(call).toHaveBeenCalledWith('addTodo', { text: 'Buy milk' });
  expect(added).toMatchObject({ id: 1, text: 'Buy milk', done: false });
  expect(await runtime.call('listTodos')).toEqual([expect.objectContaining({ text: 'Buy milk' })]);
});
