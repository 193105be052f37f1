/**
 * The LLM agent and the A2UI version each client negotiated: it writes what the client reads,
 * uses a v1.0 catalog's `instructions`, and offers renderer functions as tools on v1.0 only.
 */
import { basicCatalog, createCatalog } from '@a2ui-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectedClient, connectClient } from '../../test/connect-client.js';
import { weatherCard } from '../../test/fixtures.js';
import { systemText, toolResults } from '../../test/prompt-reading.js';
import { RENDER_TOOL_NAME } from '../catalog/render-tool-schema.js';
import { createScriptedModel, renderStep, scriptedStep } from '../testing/index.js';
import { createLlmAgent } from './create-llm-agent.js';
import type { LlmAgentEvent } from './llm-agent-options.js';

const V10_CATALOG_ID = 'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json';
/** Where the page's own functions live (a catalog the page registers them under). */
const PAGE_CATALOG_ID = 'https://example.com/page-functions/v1';

const TIME_ZONE_FUNCTION = {
  name: 'getTimeZone',
  description: 'The IANA time zone of the user’s browser, e.g. "Europe/Paris".',
  catalogId: PAGE_CATALOG_ID,
} as const;

let open: ConnectedClient[] = [];
afterEach(async () => {
  await Promise.all(open.map((test) => test.close()));
  open = [];
});

const versionsOf = (test: ConnectedClient) =>
  test.received.flatMap(({ input }) =>
    [input]
      .flat()
      .flatMap((item) => (typeof item === 'string' ? JSON.parse(item) : item))
      .map((message: { version?: string }) => message.version),
  );

describe('createLlmAgent: the negotiated version', () => {
  it('writes v1.0 to a client that negotiated it: the model’s UI and the agent surface', async () => {
    const events: LlmAgentEvent[] = [];
    const model = createScriptedModel([renderStep(weatherCard())]);
    const agent = createLlmAgent({ model, onEvent: (event) => events.push(event) });
    const test = await connectClient(agent, { offeredVersions: ['v1.0', 'v0.9'] });
    open.push(test);
    await test.transport.input({ text: 'Weather in Lyon' });
    await test.until(() => test.componentIds('weather').length === 5, 'the weather card');
    const surface = test.client.processor.getSurface('weather')!;
    expect(surface.protocolVersion.name).toBe('v1.0');
    expect(surface.catalog.catalogId).toBe(V10_CATALOG_ID);
    expect(test.client.processor.getSurface('llm-agent')!.protocolVersion.name).toBe('v1.0');
    expect(new Set(versionsOf(test))).toEqual(new Set(['v1.0']));
    expect(test.errors).toEqual([]);
    // The title's v0.9 variant "h2" becomes a Markdown heading line, which is how v1.0's Text
    // (caption/body variants, Markdown text) writes a heading: nothing lost, nothing reported.
    // (The agent's own surface leaves v0.9's theme and heading out on v1.0: nothing to report.)
    const title = [...surface.components.values()].find((record) => record.id === 'title');
    expect(title).toMatchObject({ properties: { text: '## Weather in Lyon' } });
    expect(events.filter((event) => event.type === 'version-issues')).toEqual([]);
    expect(events.filter((event) => event.type === 'turn-end')).toEqual([
      expect.objectContaining({ outcome: 'rendered' }),
    ]);
  });

  it('writes v0.9 to a client that negotiated v0.9', async () => {
    const model = createScriptedModel([renderStep(weatherCard())]);
    const test = await connectClient(createLlmAgent({ model }), { offeredVersions: ['v0.9'] });
    open.push(test);
    await test.transport.input({ text: 'Weather in Lyon' });
    await test.until(() => test.componentIds('weather').length === 5, 'the weather card');
    expect(new Set(versionsOf(test))).toEqual(new Set(['v0.9']));
  });

  it('puts the catalog’s instructions into the system prompt', async () => {
    const catalog = createCatalog({
      catalogId: basicCatalog.catalogId,
      functions: basicCatalog.functions.values(),
      validator: basicCatalog.validator,
      schema: {
        ...basicCatalog.schema,
        instructions: 'Prefer a Card around every form; never more than six fields.',
      },
    });
    const model = createScriptedModel([renderStep(weatherCard())]);
    const agent = createLlmAgent({ model, catalog });
    expect(agent.systemPrompt).toContain(
      '# How to use this catalog\nPrefer a Card around every form; never more than six fields.',
    );
    const test = await connectClient(agent);
    open.push(test);
    await test.transport.input({ text: 'Weather' });
    expect(systemText(model.calls[0]!.prompt)).toContain('never more than six fields');
    expect(createLlmAgent({ model }).systemPrompt).not.toContain('# How to use this catalog');
  });
});

describe('createLlmAgent: renderer functions as tools', () => {
  it('lets the model ask the page (v1.0) and feeds the answer back', async () => {
    const model = createScriptedModel([
      scriptedStep({ toolCalls: [{ toolName: 'getTimeZone', input: {} }] }),
      renderStep(weatherCard()),
    ]);
    const agent = createLlmAgent({ model, rendererFunctions: [TIME_ZONE_FUNCTION] });
    const calls: unknown[] = [];
    const test = await connectClient(agent, {
      offeredVersions: ['v1.0'],
      rendererFunctions: [
        {
          name: 'getTimeZone',
          catalogId: PAGE_CATALOG_ID,
          allowedCallers: 'agentOnly',
          implementation: (args) => {
            calls.push(args);
            return 'Europe/Paris';
          },
        },
      ],
    });
    open.push(test);
    await test.transport.input({ text: 'What time is it where I am?' });
    await test.until(() => test.componentIds('weather').length === 5, 'the weather card');
    expect(model.calls[0]!.tools!.map((tool) => tool.name).sort()).toEqual([
      'getTimeZone',
      RENDER_TOOL_NAME,
    ]);
    expect(calls).toEqual([{}]);
    expect(toolResults(model.calls[1]!.prompt)[0]).toMatchObject({
      toolName: 'getTimeZone',
      value: 'Europe/Paris',
    });
  });

  it('gives the model the page’s refusal as a tool error', async () => {
    const model = createScriptedModel([
      scriptedStep({ toolCalls: [{ toolName: 'getTimeZone', input: {} }] }),
      renderStep(weatherCard()),
    ]);
    const agent = createLlmAgent({ model, rendererFunctions: [TIME_ZONE_FUNCTION] });
    // The page registers no such function: it answers INVALID_FUNCTION_CALL.
    const test = await connectClient(agent, { offeredVersions: ['v1.0'] });
    open.push(test);
    await test.transport.input({ text: 'Time zone?' });
    // The call ended the input's turn; the model's next step runs once the page answered.
    await expect.poll(() => model.calls.length).toBe(2);
    const [result] = toolResults(model.calls[1]!.prompt);
    expect(result).toMatchObject({ toolName: 'getTimeZone', type: 'error-text' });
    expect(String(result!.value)).toMatch(/getTimeZone/);
  });

  it('does not offer them to a client that negotiated v0.9', async () => {
    const model = createScriptedModel([renderStep(weatherCard())]);
    const agent = createLlmAgent({ model, rendererFunctions: [TIME_ZONE_FUNCTION] });
    const test = await connectClient(agent, { offeredVersions: ['v0.9'] });
    open.push(test);
    await test.transport.input({ text: 'Weather' });
    expect(model.calls[0]!.tools!.map((tool) => tool.name)).toEqual([RENDER_TOOL_NAME]);
  });
});
