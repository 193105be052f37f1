/**
 * A bare session host over Redis in a process of its own, for tests that stop the process
 * (`SIGSTOP`) to make it stall past its lease. Configured by the JSON in `A2UI_TEST_NODE`
 * (`redisUrl`, `keyPrefix`, `leaseTtlMs`, `keyTtlMs`); takes commands over IPC — `open` a
 * connection of a chosen id, `send` a data-model update on it, `receive` an action for it as a
 * binding would — and reports `ready`, `opened`, `disconnect` (with the reason), `sent`, every
 * `action` its agent handles and how each `receive` ended (`received`).
 */
import type { Connection } from '@a2ui-ts/core';
import { createSessionHost } from '@a2ui-ts/core/host';
import { createRedisScaleOut } from '../src/index.js';
import type { TestNodeConfig } from './node-main.js';

/** What the parent configures: the Redis part of a cross-process test node's configuration. */
export type SessionNodeConfig = Pick<
  TestNodeConfig,
  'redisUrl' | 'keyPrefix' | 'leaseTtlMs' | 'keyTtlMs'
>;

/** Commands from the parent. */
export type SessionNodeCommand =
  | { type: 'open'; id: string; principal: string }
  | { type: 'send'; connectionId: string; value: string }
  | { type: 'receive'; connectionId: string; principal: string; name: string };

/** Messages from the node to the parent. */
export type SessionNodeReport =
  | { type: 'ready'; nodeId: string }
  | { type: 'opened'; connectionId: string; created: boolean }
  | { type: 'sent'; connectionId: string; value: string }
  | { type: 'disconnect'; connectionId: string; reason: string }
  | { type: 'action'; connectionId: string; name: string }
  | { type: 'received'; name: string; error?: string };

const config = JSON.parse(process.env.A2UI_TEST_NODE ?? '{}') as SessionNodeConfig;
const report = (message: SessionNodeReport) => process.send?.(message);

const scaleOut = await createRedisScaleOut({
  url: config.redisUrl,
  keyPrefix: config.keyPrefix,
  leaseTtlMs: config.leaseTtlMs,
  keyTtlMs: config.keyTtlMs,
  onError: () => {},
});
const connections = new Map<string, Connection>();
const host = createSessionHost({
  ...scaleOut.hostOptions,
  onAgentError: () => {},
  agent: {
    onConnect: (connection) => {
      connections.set(connection.id, connection);
    },
    onAction: (connection, action) => {
      report({ type: 'action', connectionId: connection.id, name: action.name });
    },
    onDisconnect: (connection, reason) => {
      connections.delete(connection.id);
      report({ type: 'disconnect', connectionId: connection.id, reason });
    },
  },
});
report({ type: 'ready', nodeId: scaleOut.nodeId });

process.on('message', async (command: SessionNodeCommand) => {
  if (command.type === 'open') {
    const opened = await host.open({ principal: command.principal, id: command.id });
    report({ type: 'opened', ...opened });
  } else if (command.type === 'send') {
    connections.get(command.connectionId)?.send({
      version: 'v0.9',
      updateDataModel: { surfaceId: 's', path: '/v', value: command.value },
    });
    report({ type: 'sent', connectionId: command.connectionId, value: command.value });
  } else if (command.type === 'receive') {
    const message = {
      version: 'v0.9' as const,
      action: {
        name: command.name,
        surfaceId: 's',
        sourceComponentId: 'b',
        timestamp: new Date().toISOString(),
        context: {},
      },
    };
    try {
      await host.receive(command.connectionId, {
        principal: command.principal,
        message,
        bytes: 10,
        awaitTurn: true,
      });
      report({ type: 'received', name: command.name });
    } catch (error) {
      report({ type: 'received', name: command.name, error: (error as { code?: string }).code });
    }
  }
});
