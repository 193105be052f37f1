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
  /**
   * The A2UI versions the agent is served in, in its preference order: a client offering
   * several gets the first it reads. @default every version, v1.0 first (`DEFAULT_A2UI_VERSIONS`)
   */
  readonly a2uiVersions?: readonly string[];
}

/**
 * The preference of the agents written in v0.9 (converted for a client that reads only v1.0 or
 * v0.8): a client that reads v0.9 gets what the agent wrote, with its headings and theme, which
 * v1.0 removed.
 */
export const V09_FIRST_VERSIONS: readonly string[] = ['v0.9', 'v0.9.1', 'v1.0', 'v0.8'];

/** Structured log sink shared by the server and the agents. */
export type DemoLogger = (event: string, fields?: Record<string, unknown>) => void;
