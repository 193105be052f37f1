/**
 * A stock `@a2a-js/sdk` server (its Express handlers, its `DefaultRequestHandler`) whose executor
 * emits A2UI the way the official restaurant-finder sample does (google/A2UI
 * `samples/agent/adk/restaurant_finder`, `a2a-mcp-lavs.md` §2.5): UI only when the client activates
 * the A2UI extension; a submitted task, then `working` status updates whose message holds a text
 * part and one A2UI message per data part (`metadata.mimeType`, and `mediaType` on v1.0), then
 * `input-required` with an empty message; actions detected by `data.version` and `action`
 * (`book_restaurant` → a booking form, `submit_booking` → a confirmation and `completed`). The
 * card is the sample's: v0.3, extensions for v0.8 and v0.9.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentCard, type Message, type Part, Role, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  InMemoryTaskStore,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { BASIC_CATALOG_ID, isRecord, type ServerMessage } from '@a2ui-ts/core';
import express from 'express';
import { A2UI_EXTENSION_URI } from '../src/protocol/a2ui-extension.js';

export interface RestaurantFinder {
  readonly url: string;
  /** What the executor received: the A2UI actions, and the texts. */
  readonly actions: Array<{ name: string; context: unknown }>;
  readonly queries: string[];
  close(): Promise<void>;
}

const surface = (
  id: string,
  components: unknown[],
  model: Record<string, unknown>,
): ServerMessage[] => [
  { version: 'v0.9', createSurface: { surfaceId: id, catalogId: BASIC_CATALOG_ID } },
  { version: 'v0.9', updateComponents: { surfaceId: id, components } } as ServerMessage,
  { version: 'v0.9', updateDataModel: { surfaceId: id, path: '/', value: model } },
];

const listSurface = () =>
  surface(
    'default',
    [
      { id: 'root', component: 'Column', children: ['title', 'list'] },
      { id: 'title', component: 'Text', text: { path: '/title' } },
      { id: 'list', component: 'List', children: { componentId: 'card', path: '/items' } },
      { id: 'card', component: 'Card', child: 'row' },
      { id: 'row', component: 'Row', children: ['name', 'template-book-button'] },
      { id: 'name', component: 'Text', text: { path: 'name' } },
      {
        id: 'template-book-button',
        component: 'Button',
        child: 'book-label',
        action: {
          event: { name: 'book_restaurant', context: { restaurantName: { path: 'name' } } },
        },
      },
      { id: 'book-label', component: 'Text', text: 'Book' },
    ],
    { title: 'Top restaurants', items: [{ name: 'Xi’an Famous Foods' }, { name: 'Han Dynasty' }] },
  );

const bookingSurface = (restaurant: string) =>
  surface(
    'booking-form',
    [
      { id: 'root', component: 'Column', children: ['heading', 'party', 'submit'] },
      { id: 'heading', component: 'Text', text: `Book ${restaurant}` },
      { id: 'party', component: 'TextField', label: 'Party size', value: { path: '/partySize' } },
      {
        id: 'submit',
        component: 'Button',
        child: 'submit-label',
        action: {
          event: { name: 'submit_booking', context: { partySize: { path: '/partySize' } } },
        },
      },
      { id: 'submit-label', component: 'Text', text: 'Submit' },
    ],
    { partySize: '2' },
  );

const confirmation = (partySize: unknown): ServerMessage[] => [
  { version: 'v0.9', deleteSurface: { surfaceId: 'booking-form' } },
  ...surface('confirmation', [{ id: 'root', component: 'Text', text: { path: '/text' } }], {
    text: `Booked for ${partySize}`,
  }),
];

/** Starts the sample-like agent; `mimeType` as it emits it, its protocol version, and whether it streams. */
export async function startRestaurantFinder(
  options: { mimeType?: string; protocolVersion?: '0.3' | '1.0'; streaming?: boolean } = {},
): Promise<RestaurantFinder> {
  const mimeType = options.mimeType ?? 'application/json+a2ui';
  const protocolVersion = options.protocolVersion ?? '0.3';
  const actions: RestaurantFinder['actions'] = [];
  const queries: string[] = [];
  const dataPart = (message: ServerMessage): Part => ({
    content: { $case: 'data', value: message },
    mediaType: protocolVersion === '1.0' ? mimeType : '',
    filename: '',
    metadata: { mimeType },
  });
  const textPart = (text: string): Part => ({
    content: { $case: 'text', value: text },
    mediaType: '',
    filename: '',
    metadata: undefined,
  });
  const agentMessage = (taskId: string, contextId: string, parts: Part[]): Message => ({
    messageId: crypto.randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  });

  const executor: AgentExecutor = {
    async execute(context, bus) {
      const { taskId, contextId } = context;
      const message = context.userMessage;
      bus.publish(
        AgentEvent.task(
          context.task ?? {
            id: taskId,
            contextId,
            status: {
              state: TaskState.TASK_STATE_SUBMITTED,
              message: undefined,
              timestamp: new Date().toISOString(),
            },
            artifacts: [],
            history: [message],
            metadata: undefined,
          },
        ),
      );
      const activated =
        (context.context.requestedExtensions ?? []).includes(A2UI_EXTENSION_URI) ||
        message.extensions.includes(A2UI_EXTENSION_URI);
      const status = (state: TaskState, parts: Part[]) =>
        bus.publish(
          AgentEvent.statusUpdate({
            taskId,
            contextId,
            status: {
              state,
              message: agentMessage(taskId, contextId, parts),
              timestamp: new Date().toISOString(),
            },
            metadata: undefined,
          }),
        );
      let action: { name: string; context: Record<string, unknown> } | undefined;
      for (const part of message.parts) {
        const value = part.content?.$case === 'data' ? part.content.value : undefined;
        if (isRecord(value) && value.version === 'v0.9' && isRecord(value.action))
          action = value.action as { name: string; context: Record<string, unknown> };
        if (part.content?.$case === 'text') queries.push(part.content.value);
      }
      if (!activated) {
        status(TaskState.TASK_STATE_INPUT_REQUIRED, [
          textPart('Here are some restaurants (text only).'),
        ]);
        return;
      }
      let reply: ServerMessage[];
      let final = TaskState.TASK_STATE_INPUT_REQUIRED;
      if (action?.name === 'book_restaurant') {
        actions.push(action);
        reply = bookingSurface(String(action.context.restaurantName));
      } else if (action?.name === 'submit_booking') {
        actions.push(action);
        reply = confirmation(action.context.partySize);
        final = TaskState.TASK_STATE_COMPLETED;
      } else reply = listSurface();
      // As the sample streams LLM output: a text part, then the A2UI messages, in a few updates.
      status(TaskState.TASK_STATE_WORKING, [textPart('Working on it…'), dataPart(reply[0]!)]);
      status(TaskState.TASK_STATE_WORKING, reply.slice(1).map(dataPart));
      status(final, []);
    },
    async cancelTask(taskId, bus) {
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId: '',
          status: {
            state: TaskState.TASK_STATE_CANCELED,
            message: undefined,
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        }),
      );
    },
  };

  const app = express();
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = {
    name: 'Restaurant Agent',
    description: 'This agent helps find restaurants based on user criteria.',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${url}/`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion },
    ],
    provider: undefined,
    capabilities: {
      streaming: options.streaming ?? true,
      pushNotifications: false,
      extensions: [
        {
          uri: 'https://a2ui.org/a2a-extension/a2ui/v0.8',
          description: 'A2UI v0.8',
          required: false,
          params: undefined,
        },
        {
          uri: A2UI_EXTENSION_URI,
          description: 'A2UI v0.9',
          required: false,
          params: { supportedCatalogIds: [BASIC_CATALOG_ID] },
        },
      ],
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text', 'text/plain'],
    defaultOutputModes: ['text', 'text/plain'],
    skills: [
      {
        id: 'find_restaurants',
        name: 'Find Restaurants Tool',
        description: 'Helps find restaurants based on user criteria.',
        tags: ['restaurant', 'finder'],
        examples: ['Find me the top 10 chinese restaurants in the US'],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  } as unknown as AgentCard;
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const legacyCompat = { enabled: true };
  app.use(
    '/.well-known/agent-card.json',
    agentCardHandler({ agentCardProvider: handler, legacyCompat }),
  );
  app.use(
    '/',
    jsonRpcHandler({
      requestHandler: handler,
      userBuilder: UserBuilder.noAuthentication,
      legacyCompat,
    }),
  );
  return {
    url,
    actions,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
