/**
 * What the demo server needs to know about an agent to list it and mount it on every transport.
 */
import type { A2uiAgent } from '@a2ui-ts/core';

/** An agent with the names the client's agent picker shows. */
export interface DemoAgent {
  /** URL-safe id; the agent is served under `/a2ui/<id>/<transport>`. */
  readonly id: string;
  readonly label: string;
  /** One sentence for the picker. */
  readonly description: string;
  readonly agent: A2uiAgent;
  /**
   * The agent served over transport `transportId` (e.g. `'agui-state'`), when it differs by
   * transport. @default `agent` on every transport
   */
  readonly agentFor?: (transportId: string) => A2uiAgent;
}

/** Structured log sink shared by the server and the agents. */
export type DemoLogger = (event: string, fields?: Record<string, unknown>) => void;
