/**
 * Wraps an agent so every connection, action, client error, user input and disconnect is logged,
 * whatever the agent and the transport. Every hook is defined (it logs) and calls the agent's when
 * the agent has one.
 */
import { type A2uiAgent, readRendererDataModel } from '@a2ui-ts/core';
import type { DemoLogger } from '../agents/demo-agent.js';

/**
 * Returns an agent that logs, then delegates to `agent`.
 *
 * Action lines carry the resolved `context` and the attached data model (`a2uiClientDataModel`, or v1.0's `a2uiRendererDataModel`), so what the
 * agent received can be checked from the log alone.
 */
export function withLogging(
  agent: A2uiAgent,
  logger: DemoLogger,
  labels: { agent: string; transport: string },
): A2uiAgent {
  return {
    // The functions renderers may call (v1.0 callAgentFunction) stay the agent's.
    ...(agent.functions && { functions: agent.functions }),
    async onConnect(connection) {
      logger('connection.open', { ...labels, connectionId: connection.id });
      await agent.onConnect?.(connection);
    },
    async onAction(connection, action, metadata) {
      logger('action', {
        ...labels,
        connectionId: connection.id,
        name: action.name,
        surfaceId: action.surfaceId,
        sourceComponentId: action.sourceComponentId,
        context: action.context,
        dataModel: readRendererDataModel(metadata)?.surfaces,
      });
      await agent.onAction?.(connection, action, metadata);
    },
    async onError(connection, error, metadata) {
      logger('client.error', { ...labels, connectionId: connection.id, error });
      await agent.onError?.(connection, error, metadata);
    },
    async onInput(connection, input, metadata) {
      logger('input', {
        ...labels,
        connectionId: connection.id,
        text: input.text,
        tools: input.tools?.map((tool) => tool.name),
      });
      await agent.onInput?.(connection, input, metadata);
    },
    async onDisconnect(connection, reason) {
      logger('connection.close', { ...labels, connectionId: connection.id, reason });
      await agent.onDisconnect?.(connection, reason);
    },
  };
}
