/**
 * Opens `@a2a-js/sdk`'s client for `connectA2a`: reads the agent card (unless the application
 * gave it), checks that the agent declares the A2UI extension of an offered version, and picks
 * the version the server will activate. Refusals a retry cannot fix are fatal; a card that is
 * down for a while is a dropped link, retried.
 */
import type { AgentCard } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { A2uiError, describeError } from '@a2ui-ts/core';
import { isRetryableStatus, type LinkOutcome } from '@a2ui-ts/core/link';
import { a2uiVersionOfExtensionUri } from '../protocol/a2ui-extension.js';
import type { CallWatch } from './call-watch.js';
import { httpError } from './step-reader.js';

/** The SDK client, and what the card said. */
export interface OpenedSdkClient {
  readonly client: Client;
  /** The card says the agent streams: its answers begin at once, so they get a deadline to begin. */
  readonly streams: boolean;
  /** The A2UI version both sides speak. */
  readonly a2uiVersion: string | undefined;
}

/** What {@link openSdkClient} needs. */
export interface OpenSdkClientOptions {
  /** The agent's base URL (with a trailing slash) or its card's URL. */
  readonly baseUrl: string;
  /** The card, when the application gave it. */
  readonly card: AgentCard | undefined;
  readonly calls: CallWatch;
  /** Deadline of the card request. */
  readonly requestTimeoutMs: number;
  readonly requireExtension: boolean;
  /** The offered A2UI extension URIs, in the client's preference order. */
  readonly offeredUris: readonly string[];
  readonly signal: AbortSignal;
}

/** The SDK's factory, reading cards and calling agents through `calls`. */
function createFactory(calls: CallWatch): ClientFactory {
  const compat = { legacyCompat: { enabled: true } };
  return new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ ...compat, fetchImpl: calls.fetch })],
      cardResolver: new DefaultAgentCardResolver({ ...compat, fetchImpl: calls.fetch }),
    }),
  );
}

/** Reads the card: the raw card, or how the attempt ends. */
async function fetchCard(
  options: OpenSdkClientOptions,
): Promise<{ card: unknown } | { outcome: LinkOutcome }> {
  const { baseUrl } = options;
  const cardUrl = /\.json($|\?)/.test(baseUrl)
    ? baseUrl
    : new URL('.well-known/agent-card.json', baseUrl).toString();
  const call = options.calls.start(options.signal, { timeoutMs: options.requestTimeoutMs });
  try {
    const response = await options.calls.fetch(cardUrl, {
      headers: { 'A2A-Version': '1.0' },
      signal: call.signal,
    });
    if (!response.ok) {
      const message = `GET ${cardUrl} answered HTTP ${response.status}.`;
      await response.body?.cancel();
      if (isRetryableStatus(response.status))
        return {
          outcome: { kind: 'dropped', reason: message, retryAfterMs: call.record.retryAfterMs },
        };
      return { outcome: { kind: 'fatal', error: httpError(response.status, message) } };
    }
    return { card: await response.json() };
  } catch (error) {
    return {
      outcome: {
        kind: 'dropped',
        reason: `Could not read the agent card: ${describeError(error)}`,
      },
    };
  } finally {
    call.end();
  }
}

/**
 * Creates the SDK client from the agent card.
 *
 * @returns the client, or the {@link LinkOutcome} that ends this attempt (`dropped`: a card that
 *   could not be read; `fatal` with `NOT_SUPPORTED`: no usable interface, or no offered A2UI
 *   extension while `requireExtension`)
 */
export async function openSdkClient(
  options: OpenSdkClientOptions,
): Promise<OpenedSdkClient | LinkOutcome> {
  let raw: unknown = options.card;
  if (raw === undefined) {
    const read = await fetchCard(options);
    if ('outcome' in read) return read.outcome;
    raw = read.card;
  }
  let created: Client;
  try {
    created = await createFactory(options.calls).createFromAgentCard(raw as AgentCard);
  } catch (error) {
    return {
      kind: 'fatal',
      error: new A2uiError(
        'NOT_SUPPORTED',
        `The agent card offers no usable interface: ${describeError(error)}`,
      ),
    };
  }
  const card = await created.getAgentCard().catch(() => raw as AgentCard);
  const extensions = card.capabilities?.extensions ?? [];
  const { offeredUris } = options;
  if (
    options.requireExtension &&
    !extensions.some((extension) => offeredUris.includes(extension.uri))
  ) {
    return {
      kind: 'fatal',
      error: new A2uiError(
        'NOT_SUPPORTED',
        `The agent declares the A2UI extension of none of the offered versions (${offeredUris.join(', ')}).`,
      ),
    };
  }
  // The card lists one A2UI extension per version in the server's preference order, and the
  // server activates the first of them the client offered: the same pick, made here.
  const activated = extensions.find((extension) => offeredUris.includes(extension.uri));
  return {
    client: created,
    streams: card.capabilities?.streaming === true,
    a2uiVersion: activated ? a2uiVersionOfExtensionUri(activated.uri) : undefined,
  };
}
