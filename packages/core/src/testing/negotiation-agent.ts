/**
 * An agent for version-negotiation tests of every binding: it greets each connection with a
 * surface written in the version negotiated for it (`connection.protocolVersions[0]`, v0.9 when
 * the client offered none), and records what each connection negotiated.
 */
import type { A2uiAgent } from '../agent/agent.js';
import { A2uiClient } from '../client/a2ui-client.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import type { ClientTransport } from '../transport/client-transport.js';
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

/** What {@link greetOver} saw of the greeting a client received. */
export interface Greeting {
  /** The version the transport says it negotiated (`undefined` when it names none). */
  readonly protocolVersion: string | undefined;
  /** The version the greeting surface was created in. */
  readonly surfaceVersion: string;
  /** The greeting's root `Text` (`Speaking v…`). */
  readonly text: unknown;
}

/**
 * Connects an `A2uiClient` over `transport` to a server running {@link createNegotiationAgent},
 * waits for the greeting's root component, closes, and returns what the client saw — so every binding's
 * end-to-end negotiation test is one call and one expectation.
 */
export async function greetOver(
  transport: ClientTransport & { readonly protocolVersion?: string | undefined },
): Promise<Greeting> {
  const client = new A2uiClient({ transport });
  const done = client.connect();
  try {
    // In v0.9 the surface exists a message before its root; wait for the root.
    await client.until(
      () => client.processor.getSurface(NEGOTIATION_SURFACE_ID)?.components.has('root') === true,
    );
    const surface = client.processor.getSurface(NEGOTIATION_SURFACE_ID)!;
    return {
      protocolVersion: transport.protocolVersion,
      surfaceVersion: surface.protocolVersion.name,
      text: surface.components.get('root')?.properties.text,
    };
  } finally {
    await client.close();
    await done;
  }
}
