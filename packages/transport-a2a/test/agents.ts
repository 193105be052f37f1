/**
 * Agents and A2A messages for the tests: a form agent that records what it gets, and helpers that
 * build requests in `@a2a-js/sdk`'s in-memory form and on the v1.0 / v0.3 wires.
 */

import { type Message, type Part, Role, type SendMessageRequest } from '@a2a-js/sdk';
import {
  type A2uiAgent,
  type AgentInput,
  BASIC_CATALOG_ID,
  type ClientMessageMetadata,
  type Connection,
  type DisconnectReason,
  type ServerMessage,
} from '@a2ui-ts/core';

export const formSurface: ServerMessage[] = [
  { version: 'v0.9', createSurface: { surfaceId: 'form', catalogId: BASIC_CATALOG_ID } },
  {
    version: 'v0.9',
    updateComponents: {
      surfaceId: 'form',
      components: [
        {
          id: 'root',
          component: 'Button',
          child: 'label',
          action: { event: { name: 'submit', context: { n: { path: '/n' } } } },
        },
        { id: 'label', component: 'Text', text: 'Send' },
      ],
    },
  },
];

export const update = (path: string, value: unknown): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'form', path, value },
});

export const actionMessage = (name = 'submit', context: Record<string, unknown> = {}) => ({
  version: 'v0.9' as const,
  action: {
    name,
    surfaceId: 'form',
    sourceComponentId: 'root',
    timestamp: '2026-01-01T00:00:00.000Z',
    context,
  },
});

/** A form agent that records its connections, inputs and disconnects. */
export function formAgent(extra: Partial<A2uiAgent> = {}) {
  const connections: Connection[] = [];
  const actions: Array<{
    name: string;
    context: unknown;
    metadata: ClientMessageMetadata | undefined;
  }> = [];
  const errors: string[] = [];
  const inputs: AgentInput[] = [];
  const disconnects: DisconnectReason[] = [];
  const agent: A2uiAgent = {
    onConnect(connection) {
      connections.push(connection);
      connection.send(formSurface);
    },
    onAction(connection, action, metadata) {
      actions.push({ name: action.name, context: action.context, metadata });
      connection.send(update('/answer', action.name));
    },
    onError(_connection, error) {
      errors.push(error.code);
    },
    onInput(connection, input) {
      inputs.push(input);
      connection.send(update('/heard', input.text ?? null));
    },
    onDisconnect(_connection, reason) {
      disconnects.push(reason);
    },
    ...extra,
  };
  return { agent, connections, actions, errors, inputs, disconnects };
}

export const textPart = (text: string): Part => ({
  content: { $case: 'text', value: text },
  mediaType: '',
  filename: '',
  metadata: undefined,
});

export const dataPart = (value: unknown, mimeType?: string): Part => ({
  content: { $case: 'data', value },
  mediaType: mimeType ?? '',
  filename: '',
  metadata: mimeType ? { mimeType } : undefined,
});

/** A user message request in the SDK's in-memory form. */
export function userRequest(
  parts: Part[],
  ids: { contextId?: string; taskId?: string; messageId?: string } = {},
  metadata?: Record<string, unknown>,
): SendMessageRequest {
  const message: Message = {
    messageId: ids.messageId ?? crypto.randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: Role.ROLE_USER,
    parts,
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: '', message, configuration: undefined, metadata: undefined };
}

/** A JSON-RPC frame as tests read it: loosely, each assertion says what it expects. */
// biome-ignore lint/suspicious/noExplicitAny: frames are plain JSON read by assertions
export type JsonFrame = Record<string, any>;

/**
 * A v1.0 JSON-RPC request (id 1) of a send `method` on the raw wire: a user message with a fresh
 * id and no parts, `message` merged in, and `params` beside it.
 */
export const v1SendBody = (
  method: string,
  message: Record<string, unknown>,
  params: Record<string, unknown> = {},
) => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  params: {
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [], ...message },
    ...params,
  },
});

/** Posts a JSON-RPC request; returns the HTTP response. */
export function postRpc(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The JSON-RPC responses of an SSE answer, in order (the `data:` lines). */
export async function readSse(response: Response): Promise<JsonFrame[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .map((block) => block.split('\n').find((line) => line.startsWith('data: ')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice('data: '.length)));
}
