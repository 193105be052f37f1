import {
  type ActionEvent,
  BASIC_CATALOG_ID,
  basicCatalog,
  type Connection,
  createDefaultCatalogs,
  createUrlPolicy,
  type HostToolResult,
  MessageProcessor,
  minimalCatalog,
  snapshotState,
} from '@a2ui-ts/core';
import { createDeferred } from '@a2ui-ts/core/testing';
import { APICallError, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ConnectedClient, connectClient } from '../../test/connect-client.js';
import { weatherCard } from '../../test/fixtures.js';
import { systemText, toolResults, userTexts } from '../../test/prompt-reading.js';
import { readCatalogDocument } from '../catalog/catalog-document.js';
import { createReferenceIndex, referencedIds } from '../catalog/component-references.js';
import { RENDER_TOOL_NAME } from '../catalog/render-tool-schema.js';
import {
  controlledStream,
  createScriptedModel,
  renderStep,
  type ScriptStep,
  scriptedStep,
} from '../testing/index.js';
import { createLlmAgent } from './create-llm-agent.js';
import type { LlmAgentEvent, LlmAgentOptions } from './llm-agent-options.js';

const AGENT = 'llm-agent';
const v = 'v0.9' as const;

let open: ConnectedClient[] = [];
afterEach(async () => {
  await Promise.all(open.map((test) => test.close()));
  open = [];
});

async function setup(steps: readonly ScriptStep[], options: Partial<LlmAgentOptions> = {}) {
  const model = createScriptedModel(steps);
  const events: LlmAgentEvent[] = [];
  const agent = createLlmAgent({ model, onEvent: (event) => events.push(event), ...options });
  const test = await connectClient(agent);
  open.push(test);
  const status = () => String(test.data(AGENT, '/status'));
  const outcomes = () =>
    events.flatMap((event) => (event.type === 'turn-end' ? [event.outcome] : []));
  return { model, agent, test, events, status, outcomes };
}

/** The index of the input delta after which the streamed arguments contain `text`. */
function deltaIndexAfter(parts: ReturnType<typeof renderStep>, text: string): number {
  let written = '';
  const index = parts.findIndex((part) => {
    if (part.type === 'tool-input-delta') written += part.delta;
    return written.includes(text);
  });
  if (index < 0) throw new Error(`The arguments never contain ${text}`);
  return index;
}

function parsed(input: unknown): Record<string, Record<string, unknown>> {
  return (typeof input === 'string' ? JSON.parse(input) : input) as Record<
    string,
    Record<string, unknown>
  >;
}

/** Batches of components of surface `surfaceId` the client received. */
function componentBatches(test: ConnectedClient, surfaceId: string): number {
  return test.received.filter(
    ({ input }) => parsed(input).updateComponents?.surfaceId === surfaceId,
  ).length;
}

/** Every `updateComponents` component the client received, by id (to prove what never left). */
function receivedComponents(test: ConnectedClient): Array<Record<string, unknown>> {
  return test.received.flatMap(({ input }) => {
    return (parsed(input).updateComponents?.components as Array<Record<string, unknown>>) ?? [];
  });
}

describe('createLlmAgent: streaming UI', () => {
  it('sends complete components while the tool call streams, valid after every step', async () => {
    const stream = controlledStream();
    const parts = renderStep(weatherCard(), { chunkSize: 7 });
    const { test, model } = await setup([stream.readable], { agentSurface: { prompt: false } });
    const turn = test.transport.input({ text: 'Weather in Lyon' });

    // Feed the arguments up to just after the "title" component, then look at the screen.
    const cut = deltaIndexAfter(parts, '"variant":"h2"}');
    stream.push(...parts.slice(0, cut + 1));
    await test.until(() => test.componentIds('weather').includes('title'), 'the streamed title');
    // The rest of the card is not written yet, so it cannot have been sent.
    expect(test.componentIds('weather').sort()).toEqual(['root', 'title']);
    expect(test.data('weather')).toEqual({ city: 'Lyon', temperature: 21 });

    stream.push(...parts.slice(cut + 1));
    stream.close();
    await turn;
    expect(test.componentIds('weather').sort()).toEqual([
      'refresh',
      'refresh-label',
      'root',
      'temperature',
      'title',
    ]);
    // Every batch the client received applied cleanly: the surface was valid at every step.
    expect(test.received.every(({ result }) => result.errors.length === 0)).toBe(true);
    expect(test.errors).toEqual([]);
    // The components arrived over several messages, not in one.
    expect(componentBatches(test, 'weather')).toBeGreaterThanOrEqual(3);
    expect(model.calls).toHaveLength(1);
    expect(toolResults(model.calls[0]!.prompt)).toEqual([]);
  });

  it('waits for the whole call when progressive rendering is off', async () => {
    const { test } = await setup([renderStep(weatherCard(), { chunkSize: 7 })], {
      progressive: false,
    });
    await test.transport.input({ text: 'Weather' });
    expect(componentBatches(test, 'weather')).toBe(1);
    expect(test.componentIds('weather')).toHaveLength(5);
  });

  it('replaces a surface the model creates again, and keeps its surfaces across turns', async () => {
    const { test, model, status } = await setup([
      renderStep(weatherCard('First')),
      renderStep(weatherCard('Second')),
      renderStep([
        { version: v, updateDataModel: { surfaceId: 'weather', path: '/temperature', value: 25 } },
      ]),
    ]);
    await test.transport.input({ text: 'one' });
    await test.transport.input({ text: 'two' });
    expect(
      test.client.processor.getSurface('weather')?.components.get('title')?.properties.text,
    ).toBe('Second');
    await test.transport.input({ text: 'warmer' });
    expect(test.data('weather', '/temperature')).toBe(25);
    expect(test.errors).toEqual([]);
    expect(status()).toBe('scripted-model rendered "weather".');
    // The model is told what is on screen.
    expect(systemText(model.calls[2]!.prompt)).toMatch(
      /"weather": components [^;]*root \(Column\)/,
    );
  });
});

/**
 * Watches what the client shows of `surfaceId` after every batch it applies: references to
 * components it does not have (what a renderer draws as a placeholder), and the messages.
 */
function watchScreen(test: ConnectedClient, surfaceId: string) {
  const references = createReferenceIndex(readCatalogDocument(basicCatalog));
  const placeholders: string[] = [];
  const messages: Array<Record<string, Record<string, unknown>>> = [];
  test.client.subscribe((event) => {
    if (event.type !== 'received') return;
    messages.push(parsed(event.input));
    const surface = test.client.processor.getSurface(surfaceId);
    for (const record of surface?.components.values() ?? []) {
      for (const id of referencedIds(record.properties, references.get(record.type) ?? [])) {
        if (!surface!.components.has(id)) placeholders.push(`${record.id} → ${id}`);
      }
    }
  });
  return { placeholders, messages };
}

/** The surfaces a client shows after applying `messages` alone. */
function rendered(messages: readonly unknown[]) {
  const client = new MessageProcessor({ catalogs: createDefaultCatalogs() });
  const { errors } = client.process(messages as never);
  if (errors.length > 0) throw new Error(JSON.stringify(errors));
  return snapshotState(client).surfaces;
}

describe('createLlmAgent: self-correction', () => {
  it('holds back what is invalid and what depends on it; the correction only adds to the card', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the test edits a fixture's nested members
    const card = weatherCard() as Array<Record<string, any>>;
    const bad = structuredClone(card);
    // The button's label has a property the catalog does not know: the label is refused, and
    // the button (which needs it) and the column's entry for the button must wait.
    bad[2]!.updateComponents.components[4].colour = 'red';
    // The model corrects itself by writing the whole card again, createSurface included.
    const { test, model, status } = await setup([renderStep(bad), renderStep(card)], {
      agentSurface: { prompt: false },
    });
    const screen = watchScreen(test, 'weather');
    await test.transport.input({ text: 'Weather' });
    expect(model.calls).toHaveLength(2);
    const value = toolResults(model.calls[1]!.prompt)[0]!.value as {
      errors: Array<{ path: string }>;
    };
    expect(value.errors.map((error) => error.path)).toEqual([
      '/messages/2/updateComponents/components/4/colour',
      '/messages/2/updateComponents/components/3',
    ]);
    // The client never showed a placeholder, never got the invalid label, never lost the card.
    expect(screen.placeholders).toEqual([]);
    expect(JSON.stringify(screen.messages)).not.toContain('colour');
    expect(screen.messages.some((message) => 'deleteSurface' in message)).toBe(false);
    expect(
      screen.messages.filter((message) => message.createSurface?.surfaceId === 'weather'),
    ).toHaveLength(1);
    expect(snapshotState(test.client.processor).surfaces.weather).toEqual(rendered(card).weather);
    expect(test.errors).toEqual([]);
    expect(status()).toBe('scripted-model rendered "weather" after 1 correction.');
  });

  it('leaves the valid rest on screen and says what failed when the budget is spent', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the test edits a fixture's nested members
    const bad = weatherCard() as Array<Record<string, any>>;
    delete bad[2]!.updateComponents.components[3].child;
    const { test, status, outcomes, events } = await setup([renderStep(bad), renderStep(bad)], {
      maxAttempts: 2,
      agentSurface: { prompt: false },
    });
    const screen = watchScreen(test, 'weather');
    await test.transport.input({ text: 'Weather' });
    expect(outcomes()).toEqual(['gave-up']);
    // One error, in the spec's error shape, for hosts that show or log it.
    expect(events.find((event) => event.type === 'turn-end')).toMatchObject({
      issue: {
        code: 'VALIDATION_FAILED',
        surfaceId: 'weather',
        path: '/messages/2/updateComponents/components/3/child',
        message: 'Missing required property "child" on component "Button".',
      },
    });
    expect(screen.placeholders).toEqual([]);
    expect(screen.messages.some((message) => 'deleteSurface' in message)).toBe(false);
    // The card without its broken button (the label alone is valid but unreachable).
    expect(test.client.processor.getSurface('weather')?.components.get('root')?.properties).toEqual(
      { id: 'root', component: 'Column', children: ['title', 'temperature'] },
    );
    expect(status()).toBe(
      'scripted-model could not produce a valid UI in 2 attempts: Missing required property "child" on component "Button". (at /messages/2/updateComponents/components/3/child). Try rephrasing the request.',
    );
  });

  it('feeds validation failures back with pointers, and never sends the invalid part', async () => {
    const { test, model, status } = await setup([
      renderStep(weatherCard(42)),
      renderStep(weatherCard('Weather in Lyon')),
    ]);
    await test.transport.input({ text: 'Weather' });
    expect(model.calls).toHaveLength(2);
    const [result] = toolResults(model.calls[1]!.prompt);
    expect(result).toMatchObject({ toolName: RENDER_TOOL_NAME, type: 'json' });
    const value = result!.value as { ok: boolean; errors: Array<{ path: string; code: string }> };
    expect(value.ok).toBe(false);
    expect(value.errors).toContainEqual(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        path: '/messages/2/updateComponents/components/1/text',
      }),
    );
    // The root's reference to the missing title is reported too, at the root's pointer.
    expect(value.errors).toContainEqual(
      expect.objectContaining({ path: '/messages/2/updateComponents/components/0' }),
    );
    expect(receivedComponents(test).some((component) => component.text === 42)).toBe(false);
    expect(
      test.client.processor.getSurface('weather')?.components.get('title')?.properties.text,
    ).toBe('Weather in Lyon');
    expect(test.errors).toEqual([]);
    expect(status()).toBe('scripted-model rendered "weather" after 1 correction.');
  });

  it('gives up after maxAttempts with a message the user can read', async () => {
    const { test, model, status, outcomes } = await setup(
      [renderStep(weatherCard(1)), renderStep(weatherCard(2))],
      { maxAttempts: 2 },
    );
    await test.transport.input({ text: 'Weather' });
    expect(model.calls).toHaveLength(2);
    expect(status()).toMatch(
      /^scripted-model could not produce a valid UI in 2 attempts: .+ \(at \/messages\/2\/updateComponents\/components\/1\/text\)\. Try rephrasing the request\.$/,
    );
    expect(outcomes()).toEqual(['gave-up']);
  });

  it('treats arguments that are not JSON as a failed attempt and says what was wrong', async () => {
    const { test, model } = await setup([
      scriptedStep({
        toolCalls: [{ toolName: RENDER_TOOL_NAME, input: '{"messages": [{"version"' }],
      }),
      renderStep(weatherCard()),
    ]);
    await test.transport.input({ text: 'Weather' });
    const [result] = toolResults(model.calls[1]!.prompt);
    expect(JSON.stringify(result!.value)).toContain('not valid JSON');
    expect(test.componentIds('weather')).toHaveLength(5);
  });

  it('feeds arguments nested 5,000 deep back to the model as invalid, and the turn goes on', async () => {
    const deep = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
    const { test, model, outcomes } = await setup([
      scriptedStep({
        toolCalls: [{ toolName: RENDER_TOOL_NAME, input: `{"messages":[${deep}]}` }],
      }),
      renderStep(weatherCard()),
    ]);
    await test.transport.input({ text: 'Weather' });
    expect(model.calls).toHaveLength(2);
    const [result] = toolResults(model.calls[1]!.prompt);
    const value = result!.value as {
      ok: boolean;
      errors: Array<{ path: string; message: string }>;
    };
    expect(value.ok).toBe(false);
    expect(value.errors[0]!.message).toMatch(/nested/);
    expect(JSON.stringify(value)).not.toMatch(/call stack/i);
    expect(test.componentIds('weather')).toHaveLength(5);
    expect(outcomes()).toEqual(['rendered']);
  });

  it.each([
    ['an openUrl action', { call: 'openUrl', args: { url: 'javascript:alert(1)' } }, 'action'],
    [
      'an openUrl action to data:text/html',
      {
        call: 'openUrl',
        args: { url: 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==' },
      },
      'action',
    ],
  ])(
    'refuses %s the model writes with a URL the policy refuses, and tells it',
    async (_name, call, key) => {
      // biome-ignore lint/suspicious/noExplicitAny: the test edits a fixture's nested members
      const card = weatherCard() as Array<Record<string, any>>;
      const bad = structuredClone(card);
      bad[2]!.updateComponents.components[3][key] = { functionCall: call };
      const { test, model } = await setup([renderStep(bad), renderStep(card)]);
      await test.transport.input({ text: 'Weather' });
      expect(model.calls).toHaveLength(2);
      const [result] = toolResults(model.calls[1]!.prompt);
      const value = result!.value as {
        ok: boolean;
        errors: Array<{ path: string; message: string }>;
      };
      expect(value.ok).toBe(false);
      expect(JSON.stringify(value.errors)).toMatch(/URL/);
      expect(JSON.stringify(receivedComponents(test))).not.toMatch(/javascript:|data:text\/html/);
    },
  );

  it('refuses an Image whose url the policy refuses, and tells the model', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the test edits a fixture's nested members
    const card = weatherCard() as Array<Record<string, any>>;
    const bad = structuredClone(card);
    bad[2]!.updateComponents.components.push({
      id: 'logo',
      component: 'Image',
      url: 'javascript:alert(1)',
    });
    bad[2]!.updateComponents.components[0].children.push('logo');
    const { test, model } = await setup([renderStep(bad), renderStep(card)]);
    await test.transport.input({ text: 'Weather' });
    expect(model.calls).toHaveLength(2);
    const [result] = toolResults(model.calls[1]!.prompt);
    expect(JSON.stringify(result!.value)).toMatch(/URL/);
    expect(JSON.stringify(receivedComponents(test))).not.toMatch(/javascript:/);
  });

  it('refuses a theme iconUrl the policy refuses, and tells the model', async () => {
    const card = weatherCard() as Array<Record<string, unknown>>;
    const bad = structuredClone(card) as Array<{ createSurface?: Record<string, unknown> }>;
    bad[0]!.createSurface!.theme = { iconUrl: 'javascript:alert(1)' };
    const { test, model } = await setup([renderStep(bad), renderStep(card)]);
    await test.transport.input({ text: 'Weather' });
    expect(model.calls).toHaveLength(2);
    const [result] = toolResults(model.calls[1]!.prompt);
    expect(JSON.stringify(result!.value)).toContain('/messages/0/createSurface/theme/iconUrl');
    expect(JSON.stringify(test.received)).not.toMatch(/javascript:/);
  });

  it('takes the URL policy it is given', async () => {
    const card = weatherCard() as Array<Record<string, unknown>>;
    const withMail = structuredClone(card) as Array<{
      updateComponents?: { components: Array<Record<string, unknown>> };
    }>;
    withMail[2]!.updateComponents!.components[3]!.action = {
      functionCall: { call: 'openUrl', args: { url: 'mailto:ada@example.com' } },
    };
    const { test, model } = await setup([renderStep(withMail)], {
      urlPolicy: createUrlPolicy({ allowedProtocols: ['https:', 'mailto:'] }),
    });
    await test.transport.input({ text: 'Weather' });
    expect(model.calls).toHaveLength(1);
    expect(JSON.stringify(receivedComponents(test))).toContain('mailto:ada@example.com');
  });

  it('asks the model to fix errors the client reports about its surfaces, bounded', async () => {
    const { test, model, status } = await setup(
      [
        renderStep(weatherCard()),
        renderStep(weatherCard('Fixed')),
        renderStep(weatherCard('Again')),
      ],
      { maxAttempts: 2 },
    );
    await test.transport.input({ text: 'Weather' });
    await test.client.send({
      version: v,
      error: { code: 'EXPRESSION_ERROR', surfaceId: 'weather', message: 'Function not found: foo' },
    });
    await test.until(
      () =>
        test.client.processor.getSurface('weather')?.components.get('title')?.properties.text ===
        'Fixed',
      'the fixed title',
    );
    expect(userTexts(model.calls[1]!.prompt).at(-1)).toContain('Function not found: foo');
    // Errors about surfaces the model did not render are not its business.
    await test.client.send({
      version: v,
      error: { code: 'EXPRESSION_ERROR', surfaceId: AGENT, message: 'not yours' },
    });
    // The budget (2 attempts) is spent: the next report is not sent to the model.
    await test.client.send({
      version: v,
      error: { code: 'EXPRESSION_ERROR', surfaceId: 'weather', message: 'still broken' },
    });
    await test.until(() => status().includes('could not produce a valid UI'), 'the give-up');
    expect(status()).toContain('the client still reports: still broken');
    expect(model.calls).toHaveLength(2);
  });

  it('refuses the agent surface, a foreign catalog and updates of unknown surfaces', async () => {
    const { model, test } = await setup([
      renderStep([
        { version: v, createSurface: { surfaceId: AGENT, catalogId: BASIC_CATALOG_ID } },
        { version: v, createSurface: { surfaceId: 'x', catalogId: 'https://example.com/other' } },
        { version: v, updateDataModel: { surfaceId: 'ghost', value: {} } },
      ]),
      renderStep(weatherCard()),
    ]);
    await test.transport.input({ text: 'go' });
    const value = toolResults(model.calls[1]!.prompt)[0]!.value as { errors: unknown[] };
    expect(value.errors).toEqual([
      expect.objectContaining({ path: '/messages/0/createSurface/surfaceId' }),
      expect.objectContaining({ path: '/messages/1/createSurface/catalogId' }),
      expect.objectContaining({ code: 'SURFACE_NOT_FOUND', path: '/messages/2' }),
    ]);
    expect(test.surfaceIds()).toEqual([AGENT, 'weather']);
  });
});

describe('createLlmAgent: tools', () => {
  it('runs app tools the model calls and feeds their results to the next call', async () => {
    const calls: Array<{ city: string; connectionId: string }> = [];
    const { test, model } = await setup(
      [
        scriptedStep({
          text: 'Let me look.',
          toolCalls: [{ toolName: 'getWeather', input: { city: 'Lyon' } }],
        }),
        renderStep(weatherCard()),
      ],
      {
        tools: {
          getWeather: tool({
            description: 'Current weather of a city',
            inputSchema: z.object({ city: z.string() }),
            execute: async ({ city }, { experimental_context }) => {
              const { connection } = experimental_context as { connection: Connection };
              calls.push({ city, connectionId: connection.id });
              return { city, temperature: 21 };
            },
          }),
        },
      },
    );
    await test.transport.input({ text: 'Weather in Lyon' });
    expect(calls).toEqual([{ city: 'Lyon', connectionId: expect.any(String) }]);
    expect(model.calls[0]!.tools?.map((entry) => entry.name).sort()).toEqual([
      'getWeather',
      RENDER_TOOL_NAME,
    ]);
    expect(model.calls[0]!.toolChoice).toEqual({ type: 'required' });
    expect(toolResults(model.calls[1]!.prompt)).toEqual([
      expect.objectContaining({ toolName: 'getWeather', value: { city: 'Lyon', temperature: 21 } }),
    ]);
    expect(test.componentIds('weather')).toHaveLength(5);
    expect(test.data(AGENT, '/reply')).toBe('Let me look.');
  });

  it('returns app tool errors and invalid arguments to the model as tool errors', async () => {
    const { test, model } = await setup(
      [
        scriptedStep({
          toolCalls: [
            { toolName: 'book', input: { seats: 'many' } },
            { toolName: 'fail', input: {} },
          ],
        }),
        renderStep(weatherCard()),
      ],
      {
        tools: {
          book: tool({
            inputSchema: z.object({ seats: z.number() }),
            execute: async () => 'booked',
          }),
          fail: tool({
            inputSchema: z.object({}),
            execute: async (): Promise<string> => {
              throw new Error('The booking service is down.');
            },
          }),
        },
      },
    );
    await test.transport.input({ text: 'Book' });
    const results = toolResults(model.calls[1]!.prompt);
    expect(results.map((result) => result.type)).toEqual(['error-text', 'error-text']);
    expect(String(results[1]!.value)).toContain('The booking service is down.');
    expect(test.componentIds('weather')).toHaveLength(5);
  });

  it('offers host tools; where the transport cannot call them the model is told', async () => {
    const { test, model } = await setup([
      scriptedStep({ toolCalls: [{ toolName: 'pickColor', input: { initial: '#fff' } }] }),
      renderStep(weatherCard()),
    ]);
    await test.transport.input({
      text: 'Theme it',
      tools: [
        {
          name: 'pickColor',
          description: 'Asks the user for a colour',
          parameters: { type: 'object', properties: { initial: { type: 'string' } } },
        },
        { name: RENDER_TOOL_NAME, description: 'clash', parameters: { type: 'object' } },
      ],
    });
    const offered = model.calls[0]!.tools!;
    expect(offered.map((entry) => entry.name).sort()).toEqual(['pickColor', RENDER_TOOL_NAME]);
    // The agent's render tool wins the name clash.
    expect(offered.find((entry) => entry.name === RENDER_TOOL_NAME)).toMatchObject({
      description: expect.stringContaining('A2UI v0.9'),
    });
    const [result] = toolResults(model.calls[1]!.prompt);
    expect(result).toMatchObject({ toolName: 'pickColor', type: 'error-text' });
    expect(String(result!.value)).toContain('carries no host tool calls');
  });

  it('calls host tools through connection.callHostTool and feeds the result back', async () => {
    const model = createScriptedModel([
      scriptedStep({ toolCalls: [{ toolName: 'pickColor', input: { initial: '#fff' } }] }),
      renderStep(weatherCard()),
    ]);
    const agent = createLlmAgent({ model });
    const client = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    const hostCalls: unknown[] = [];
    const abort = new AbortController();
    const connection: Connection = {
      id: 'host-tools',
      principal: undefined,
      protocolVersions: undefined,
      clientCapabilities: undefined,
      rendererCapabilities: undefined,
      clientDataModel: undefined,
      signal: abort.signal,
      closed: false,
      send: (messages) => {
        const { errors } = client.process(messages);
        if (errors.length > 0) throw new Error(JSON.stringify(errors));
      },
      close: () => abort.abort(),
      endTurn: () => {},
      hostTools: [
        {
          name: 'pickColor',
          description: 'Asks the user for a colour',
          parameters: { type: 'object' },
        },
      ],
      callHostTool: async (call, options): Promise<HostToolResult> => {
        hostCalls.push({ call, signal: options?.signal instanceof AbortSignal });
        return { toolCallId: 'h1', content: '#00bfff' };
      },
      callRendererFunction: async () => null,
    };
    await agent.onConnect!(connection);
    await agent.onInput!(connection, { text: 'Theme it' }, undefined);
    expect(hostCalls).toEqual([
      { call: { name: 'pickColor', args: { initial: '#fff' } }, signal: true },
    ]);
    expect(toolResults(model.calls[1]!.prompt)[0]).toMatchObject({
      toolName: 'pickColor',
      value: '#00bfff',
    });
    expect(client.getSurface('weather')?.components.size).toBe(5);
  });
});

describe('createLlmAgent: conversation', () => {
  it('turns actions on the model surfaces into user turns, with the data model', async () => {
    const { test, model } = await setup([
      renderStep(weatherCard()),
      renderStep([
        { version: v, updateDataModel: { surfaceId: 'weather', path: '/temperature', value: 19 } },
      ]),
    ]);
    await test.transport.input({ text: 'Weather' });
    await test.client.dispatchAction('weather', 'refresh');
    await test.until(() => test.data('weather', '/temperature') === 19, 'the refreshed data');
    const turn = userTexts(model.calls[1]!.prompt).at(-1)!;
    const event = JSON.parse(turn.slice(turn.indexOf('\n') + 1)).a2uiAction as ActionEvent;
    expect(event).toMatchObject({
      name: 'refresh',
      surfaceId: 'weather',
      sourceComponentId: 'refresh',
      context: { city: 'Lyon' },
    });
  });

  it('takes prompts from its prompt box, and ignores actions on surfaces it does not own', async () => {
    const { test, model } = await setup([renderStep(weatherCard())]);
    await test.until(() => test.componentIds(AGENT).includes('agent-submit'), 'the prompt box');
    test.client.processor.getSurface(AGENT)!.dataModel.set('/prompt', 'A weather card');
    await test.client.dispatchAction(AGENT, 'agent-submit');
    await test.until(() => test.componentIds('weather').length === 5, 'the card');
    expect(userTexts(model.calls[0]!.prompt)).toEqual(['A weather card']);
  });

  it('shows text answers when the model may answer without tools', async () => {
    const { test, outcomes } = await setup([scriptedStep({ text: 'Which city do you mean?' })], {
      toolChoice: 'auto',
    });
    await test.transport.input({ text: 'Weather' });
    expect(test.data(AGENT, '/reply')).toBe('Which city do you mean?');
    expect(outcomes()).toEqual(['replied']);
  });

  it('puts the host context and state into the system prompt', async () => {
    const { test, model } = await setup([renderStep(weatherCard())]);
    await test.transport.input({
      text: 'Weather',
      context: [{ description: 'User location', value: 'Lyon, France' }],
      state: { units: 'metric' },
    });
    const system = systemText(model.calls[0]!.prompt);
    expect(system).toContain('- User location: Lyon, France');
    expect(system).toContain('- Application state: {"units":"metric"}');
  });

  it('bounds the conversation by messages, never splitting a tool call from its result', async () => {
    const steps = Array.from({ length: 6 }, (_, index) => renderStep(weatherCard(`Turn ${index}`)));
    const { test, model } = await setup(steps, { history: { maxMessages: 7 } });
    for (let index = 0; index < 6; index++) await test.transport.input({ text: `turn ${index}` });
    const prompt = model.calls[5]!.prompt.filter((message) => message.role !== 'system');
    // Each exchange is user + assistant (tool call) + tool (result): two fit with the new turn.
    expect(prompt.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
      'tool',
      'user',
    ]);
    expect(userTexts(model.calls[5]!.prompt)).toEqual(['turn 3', 'turn 4', 'turn 5']);
  });

  it('bounds the conversation by tokens', async () => {
    const steps = Array.from({ length: 4 }, () => renderStep(weatherCard()));
    const { test, agent, model } = await setup(steps, { history: { maxTokens: 600 } });
    for (let index = 0; index < 4; index++) await test.transport.input({ text: `turn ${index}` });
    // One exchange is about 256 estimated tokens: two fit, the oldest goes.
    expect(userTexts(model.calls[3]!.prompt)).toEqual(['turn 1', 'turn 2', 'turn 3']);
    const session = agent.session(test.transport.session!.id)!;
    expect(session.history[0]!.role).toBe('user');
  });

  it('limits turns per connection and tells the user when to retry', async () => {
    let now = 0;
    const { test, model, status, outcomes } = await setup(
      [renderStep(weatherCard()), renderStep(weatherCard('b')), renderStep(weatherCard('c'))],
      { rateLimit: { maxTurns: 2, windowMs: 60_000 }, now: () => now },
    );
    await test.transport.input({ text: 'a' });
    now = 10_000;
    await test.transport.input({ text: 'b' });
    now = 20_000;
    await test.transport.input({ text: 'c' });
    expect(model.calls).toHaveLength(2);
    expect(status()).toBe('Too many requests: try again in 40 s.');
    now = 60_000;
    await test.transport.input({ text: 'c' });
    expect(model.calls).toHaveLength(3);
    expect(outcomes()).toEqual(['rendered', 'rendered', 'rate-limited', 'rendered']);
  });

  it('stops after maxSteps model calls', async () => {
    const loop = () => scriptedStep({ toolCalls: [{ toolName: 'lookup', input: {} }] });
    const { test, model, status, outcomes } = await setup([loop(), loop(), loop(), loop()], {
      maxSteps: 3,
      tools: { lookup: tool({ inputSchema: z.object({}), execute: async () => 'nothing' }) },
    });
    await test.transport.input({ text: 'loop' });
    expect(model.calls).toHaveLength(3);
    expect(status()).toContain('made 3 model calls without finishing');
    expect(outcomes()).toEqual(['step-limit']);
  });
});

describe('createLlmAgent: failures and cancellation', () => {
  it('does not ask the model for a catalog the client cannot render', async () => {
    const { test, model, status, outcomes } = await setup([renderStep(weatherCard())], {
      catalog: minimalCatalog,
    });
    // The test client declares basic and minimal; pretend it only had basic.
    await test.transport.input(
      { text: 'Weather' },
      { a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } } },
    );
    expect(model.calls).toHaveLength(0);
    expect(status()).toBe(
      `This client cannot render the catalog scripted-model uses (${minimalCatalog.catalogId}).`,
    );
    expect(outcomes()).toEqual(['failed']);
  });

  it('reports a provider error to the user and keeps serving', async () => {
    const { test, status, outcomes } = await setup([
      [
        {
          type: 'error',
          error: new APICallError({
            message: 'Incorrect API key provided.',
            url: 'https://api.example.com/v1/chat/completions',
            requestBodyValues: {},
            statusCode: 401,
            isRetryable: false,
          }),
        },
      ],
      renderStep(weatherCard()),
    ]);
    await test.transport.input({ text: 'Weather' });
    expect(status()).toBe(
      'The model call failed: the provider answered HTTP 401: Incorrect API key provided.',
    );
    await test.transport.input({ text: 'Weather' });
    expect(test.componentIds('weather')).toHaveLength(5);
    expect(outcomes()).toEqual(['failed', 'rendered']);
  });

  it('aborts the provider call when the client leaves, and sends nothing after', async () => {
    const stream = controlledStream();
    const parts = renderStep(weatherCard(), { chunkSize: 7 });
    const started = createDeferred();
    const ended = createDeferred<LlmAgentEvent>();
    const { test, model } = await setup([stream.readable], {
      onEvent: (event) => {
        if (event.type === 'model-call') started.resolve();
        if (event.type === 'turn-end') ended.resolve(event);
      },
    });
    void test.transport.input({ text: 'Weather' }).catch(() => {});
    await started.promise;
    stream.push(...parts.slice(0, deltaIndexAfter(parts, '"temperature":21}}},') + 1));
    await test.until(
      () => test.client.processor.getSurface('weather') !== undefined,
      'the surface',
    );
    const receivedBefore = test.received.length;
    await test.close();
    expect(await ended.promise).toMatchObject({ outcome: 'aborted' });
    expect(model.calls[0]!.abortSignal?.aborted).toBe(true);
    expect(test.received.length).toBe(receivedBefore);
  });

  it('gives up on a provider that goes silent, tells the user, and keeps serving', async () => {
    const silent = controlledStream();
    const { test, status, outcomes } = await setup([silent.readable, renderStep(weatherCard())], {
      idleTimeoutMs: 30,
    });
    silent.push(...renderStep(weatherCard()).slice(0, 3));
    await test.transport.input({ text: 'Weather' });
    expect(status()).toBe('The model call failed: scripted-model sent nothing for 30 ms');
    await test.transport.input({ text: 'Weather' });
    expect(outcomes()).toEqual(['failed', 'rendered']);
  });

  it('renders what streamed before a cut-off call and asks for the rest', async () => {
    const parts = renderStep(weatherCard(), { chunkSize: 7 });
    const lastDelta = parts.findLastIndex((part) => part.type === 'tool-input-delta');
    const truncated = [...parts.slice(0, lastDelta - 4), parts.at(-1)!].map((part) =>
      part.type === 'finish'
        ? { ...part, finishReason: { unified: 'length' as const, raw: 'length' } }
        : part,
    );
    const { test, model } = await setup([truncated, renderStep(weatherCard())]);
    await test.transport.input({ text: 'Weather' });
    expect(userTexts(model.calls[1]!.prompt).at(-1)).toMatch(
      /^Your render_a2ui call was cut off before its arguments were complete \(finish reason: length\); \d+ messages were applied\./,
    );
    expect(test.componentIds('weather')).toHaveLength(5);
    expect(test.errors).toEqual([]);
  });
});
