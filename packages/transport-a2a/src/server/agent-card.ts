/**
 * The agent card of an A2UI agent (`a2a-mcp-lavs.md` §1.2, §2.1): the A2UI extension (not
 * required, so plain A2A clients are served too) with the catalogs the agent renders into, one
 * JSON-RPC interface per protocol version it speaks, and streaming. A v1.0 client (`A2A-Version:
 * 1.0`) gets the v1.0 card; any other request — A2A v0.3 clients send no version — gets the v0.3
 * shape with the v1.0 interfaces embedded, as the SDK's own Express handler serves it (its
 * translator is internal, so the v0.3 card is built here).
 */

import type { AgentCard, AgentSkill } from '@a2a-js/sdk';
import { AgentCard as AgentCardJson } from '@a2a-js/sdk';
import { BASIC_CATALOG_ID, V1_0_BASIC_CATALOG_ID, V08_STANDARD_CATALOG_ID } from '@a2ui-ts/core';
import {
  A2UI_MIME_TYPE,
  A2UI_MIME_TYPE_ALIAS,
  a2uiExtensionUriOf,
} from '../protocol/a2ui-extension.js';

/** A2A protocol versions this binding speaks. */
export type A2aProtocolVersion = '1.0' | '0.3';

/** What the card says about the agent. All optional; defaults in {@link AGENT_CARD_DEFAULTS}. */
export interface A2aAgentCardOptions {
  name?: string;
  description?: string;
  /** The agent's own version. */
  version?: string;
  provider?: { organization: string; url: string };
  documentationUrl?: string;
  iconUrl?: string;
  /** Skills, in the v1.0 shape (`id`, `name`, `description`, `tags`, …). */
  skills?: Array<Partial<AgentSkill> & Pick<AgentSkill, 'id' | 'name' | 'description'>>;
  defaultInputModes?: string[];
  defaultOutputModes?: string[];
}

/** Defaults of {@link A2aAgentCardOptions}. */
export const AGENT_CARD_DEFAULTS = {
  name: 'A2UI agent',
  description: 'An agent that answers with interactive A2UI surfaces.',
  version: '1.0.0',
  defaultInputModes: ['text/plain', A2UI_MIME_TYPE, A2UI_MIME_TYPE_ALIAS],
  defaultOutputModes: [A2UI_MIME_TYPE, 'text/plain'],
  skill: {
    id: 'a2ui',
    name: 'Interactive UI',
    description: 'Streams A2UI v0.9 surfaces and handles their actions.',
    tags: ['a2ui', 'ui'],
  },
} as const;

/** What the card's A2UI extension declares (its `params`). */
export interface A2uiExtensionParams {
  /** Catalogs the agent renders into. @default the basic catalog */
  supportedCatalogIds?: readonly string[];
  /** Whether clients may send inline catalogs in their capabilities. @default false */
  acceptsInlineCatalogs?: boolean;
}

/** The basic catalog of each A2UI version: an extension's `supportedCatalogIds` by default. */
const DEFAULT_CATALOG_OF_VERSION: Readonly<Record<string, string>> = {
  'v0.8': V08_STANDARD_CATALOG_ID,
  'v0.9': BASIC_CATALOG_ID,
  'v0.9.1': BASIC_CATALOG_ID,
  'v1.0': V1_0_BASIC_CATALOG_ID,
};

/**
 * The v1.0 card (the SDK's in-memory form).
 *
 * @param url - the JSON-RPC endpoint, absolute
 * @param versions - protocol versions, preferred first
 * @param a2uiVersions - the A2UI versions the server speaks, preferred first: one extension each
 *   (`supportedCatalogIds` defaults to that version's basic catalog)
 */
export function createAgentCard(
  url: string,
  versions: readonly A2aProtocolVersion[],
  card: A2aAgentCardOptions = {},
  extension: A2uiExtensionParams = {},
  a2uiVersions: readonly string[] = ['v0.9'],
): AgentCard {
  const defaults = AGENT_CARD_DEFAULTS;
  const skills = card.skills ?? [defaults.skill];
  return {
    name: card.name ?? defaults.name,
    description: card.description ?? defaults.description,
    version: card.version ?? defaults.version,
    supportedInterfaces: versions.map((protocolVersion) => ({
      url,
      protocolBinding: 'JSONRPC',
      tenant: '',
      protocolVersion,
    })),
    provider: card.provider,
    documentationUrl: card.documentationUrl,
    iconUrl: card.iconUrl,
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: false,
      // One A2UI extension per version the server speaks, in its preference order: a client
      // requests the URIs of the versions it reads and the server activates one of them.
      extensions: a2uiVersions.map((version) => ({
        uri: a2uiExtensionUriOf(version),
        description: `Streams A2UI ${version} messages as data parts and accepts A2UI actions.`,
        required: false,
        params: {
          supportedCatalogIds: [
            ...(extension.supportedCatalogIds ?? [
              DEFAULT_CATALOG_OF_VERSION[version] ?? BASIC_CATALOG_ID,
            ]),
          ],
          acceptsInlineCatalogs: extension.acceptsInlineCatalogs ?? false,
        },
      })),
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: [...(card.defaultInputModes ?? defaults.defaultInputModes)],
    defaultOutputModes: [...(card.defaultOutputModes ?? defaults.defaultOutputModes)],
    skills: skills.map((skill) => ({
      tags: [],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
      ...skill,
    })),
    signatures: [],
  } as AgentCard;
}

/** The v1.0 card as JSON (ProtoJSON), as the SDK's card resolver reads it. */
export function agentCardToJson(card: AgentCard): unknown {
  return AgentCardJson.toJSON(card);
}

/**
 * The v0.3 card as JSON: `url` and `protocolVersion` of the first v0.3 interface, `additionalInterfaces`,
 * the capabilities with the A2UI extension, and the v1.0 interfaces embedded (`supportedInterfaces`)
 * so a v1.0 client that reads it finds them.
 */
export function agentCardToV03Json(card: AgentCard): Record<string, unknown> {
  const legacy = card.supportedInterfaces.filter((entry) => entry.protocolVersion === '0.3');
  const primary = legacy[0] ?? card.supportedInterfaces[0]!;
  const json: Record<string, unknown> = {
    name: card.name,
    description: card.description,
    version: card.version,
    url: primary.url,
    preferredTransport: primary.protocolBinding,
    protocolVersion: '0.3',
    capabilities: {
      streaming: card.capabilities?.streaming ?? false,
      pushNotifications: card.capabilities?.pushNotifications ?? false,
      extensions: (card.capabilities?.extensions ?? []).map((extension) => ({
        uri: extension.uri,
        description: extension.description,
        required: extension.required,
        params: extension.params,
      })),
    },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map((skill) => ({
      id: skill.id,
      name: skill.name,
      description: skill.description,
      tags: skill.tags,
      ...(skill.examples.length > 0 ? { examples: skill.examples } : {}),
      ...(skill.inputModes.length > 0 ? { inputModes: skill.inputModes } : {}),
      ...(skill.outputModes.length > 0 ? { outputModes: skill.outputModes } : {}),
    })),
    supportedInterfaces: agentCardToJsonInterfaces(card),
  };
  if (legacy.length > 1)
    json.additionalInterfaces = legacy
      .slice(1)
      .map((entry) => ({ url: entry.url, transport: entry.protocolBinding }));
  if (card.provider) json.provider = card.provider;
  if (card.documentationUrl) json.documentationUrl = card.documentationUrl;
  if (card.iconUrl) json.iconUrl = card.iconUrl;
  return json;
}

function agentCardToJsonInterfaces(card: AgentCard): unknown[] {
  return card.supportedInterfaces.map(({ url, protocolBinding, protocolVersion }) => ({
    url,
    protocolBinding,
    protocolVersion,
  }));
}
