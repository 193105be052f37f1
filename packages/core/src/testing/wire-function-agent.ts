/**
 * The agent behind the "Function calls (v1.0)" examples of `docs/wire-formats.md`: every
 * binding's wire test runs it so that the bytes each binding documents come from one agent.
 * - Agent function `suggestNames({ prefix })` answers `[prefix + 'a', prefix + 'am']`.
 * - Every connection is greeted with `createSurface` of surface `main`.
 * - Every action asks the renderer for `getTimeZone` and writes the answer to `/zone`.
 */
import type { A2uiAgent, Connection } from '../agent/agent.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';

/** The agent and what it saw. */
export interface WireFunctionAgent {
  readonly agent: A2uiAgent;
  /** How often `suggestNames` ran: a retransmitted call must not raise it. */
  readonly suggestRuns: () => number;
  /** Every connection the agent was given, in connect order. */
  readonly connections: readonly Connection[];
}

/** Creates the agent; one per server. */
export function createWireFunctionAgent(): WireFunctionAgent {
  let suggestRuns = 0;
  const connections: Connection[] = [];
  const agent: A2uiAgent = {
    functions: [
      {
        name: 'suggestNames',
        parameters: {
          type: 'object',
          properties: { prefix: { type: 'string' } },
          required: ['prefix'],
        },
        handler: ({ prefix }) => {
          suggestRuns++;
          return [`${prefix}a`, `${prefix}am`];
        },
      },
    ],
    onConnect(connection) {
      connections.push(connection);
      connection.send({
        version: 'v0.9',
        createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID },
      });
    },
    async onAction(connection) {
      const zone = await connection.callRendererFunction(
        'getTimeZone',
        {},
        { catalogId: BASIC_CATALOG_ID },
      );
      connection.send({
        version: 'v0.9',
        updateDataModel: { surfaceId: 'main', path: '/zone', value: zone },
      });
    },
  };
  return { agent, suggestRuns: () => suggestRuns, connections };
}
