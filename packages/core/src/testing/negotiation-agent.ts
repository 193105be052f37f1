/**
 * An agent for version-negotiation tests of every binding: it greets each connection with a
 * surface written in the version negotiated for it (`connection.protocolVersions[0]`, v0.9 when
 * the client offered none), and records what each connection negotiated.
 */
import type { A2uiAgent } from '../agent/agent.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { AnyServerMessage } from '../versions/server-messages.js';
import { V1_0_BASIC_CATALOG_ID } from '../versions/v1-0-catalogs.js';

/** The greeting surface's id. */
export const NEGOTIATION_SURFACE_ID = 'negotiated';

/**
 * The greeting in `version`: a surface whose root `Text` names the version.
 * @throws Error for a version other than v0.9, v0.9.1 and v1.0 (the tests need no other)
 */
export function greetingInVersion(version: string): AnyServerMessage[] {
  const surfaceId = NEGOTIATION_SURFACE_ID;
  const text = { id: 'root', component: 'Text', text: `Speaking ${version}` };
  if (version === 'v1.0')
    return [
      {
        version: 'v1.0',
        createSurface: { surfaceId, catalogId: V1_0_BASIC_CATALOG_ID, components: [text] },
      },
    ];
  if (version !== 'v0.9' && version !== 'v0.9.1')
    throw new Error(`greetingInVersion: no greeting in ${version}`);
  return [
    { version, createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID } },
    { version, updateComponents: { surfaceId, components: [text] } },
  ] as AnyServerMessage[];
}

/** What a {@link createNegotiationAgent} saw: one entry per connection, in connect order. */
export interface NegotiationAgent {
  readonly agent: A2uiAgent;
  /** `connection.protocolVersions` of each connection. */
  readonly negotiated: (readonly string[] | undefined)[];
}

/** The agent: greets in the negotiated version, records `protocolVersions`. */
export function createNegotiationAgent(): NegotiationAgent {
  const negotiated: (readonly string[] | undefined)[] = [];
  return {
    negotiated,
    agent: {
      onConnect(connection) {
        negotiated.push(connection.protocolVersions);
        connection.send(greetingInVersion(connection.protocolVersions?.[0] ?? 'v0.9'));
      },
    },
  };
}
