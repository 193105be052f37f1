/**
 * Version negotiation (docs/protocol-versions.md "Negotiation"): the renderer advertises its
 * catalogs keyed by version, the agent picks the newest version in which both have a catalog.
 */
import { normalizeProtocolVersion } from '../catalog/catalog-definition.js';
import { isRecord } from '../protocol/guards.js';

/** What an agent supports in one version (v1.0 `agent_capabilities.json`). */
export interface AgentVersionCapabilities {
  /** Catalogs the agent can generate UI for. @default [] */
  readonly supportedCatalogIds?: readonly string[];
  /** Whether the renderer's inline catalogs count as shared. @default false */
  readonly acceptsInlineCatalogs?: boolean;
}

/** Agent capabilities keyed by version (`"v0.9"`, `"v0.9.1"`, `"v1.0"`; `"1.0"` is read as `"v1.0"`). */
export type AgentCapabilities = Readonly<Record<string, AgentVersionCapabilities>>;

/** The outcome of {@link negotiatedVersion}. */
export interface NegotiatedVersion {
  /** The version to emit, as envelopes spell it (`"v1.0"`, `"v0.9.1"`, `"v0.9"`). */
  readonly version: string;
  /** Catalogs both sides have in that version, in the renderer's preference order. */
  readonly catalogIds: readonly string[];
}

/** The capability maps of metadata (`a2ui…Capabilities`) or of a `Connection` (`…Capabilities`). */
const capabilityMaps = (input: unknown): Record<string, unknown>[] => {
  if (!isRecord(input)) return [];
  const maps = [
    input.a2uiClientCapabilities,
    input.a2uiRendererCapabilities,
    input.clientCapabilities,
    input.rendererCapabilities,
  ].filter(isRecord);
  return maps.length > 0 ? maps : [input];
};

const compareVersions = (a: string, b: string): number => {
  const pa = a.slice(1).split('.').map(Number);
  const pb = b.slice(1).split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pb[i] ?? 0) - (pa[i] ?? 0);
  return 0;
};

const tryNormalize = (version: string): string | undefined => {
  try {
    return normalizeProtocolVersion(version);
  } catch {
    return undefined;
  }
};

interface RendererVersion {
  readonly catalogIds: string[];
  readonly inlineIds: string[];
}

/** The renderer's catalogs per version, from every capability map it sent. */
function rendererVersions(input: unknown): Map<string, RendererVersion> {
  const out = new Map<string, RendererVersion>();
  for (const map of capabilityMaps(input)) {
    for (const [key, value] of Object.entries(map)) {
      const version = tryNormalize(key);
      if (!version || !isRecord(value)) continue;
      const ids = Array.isArray(value.supportedCatalogIds)
        ? value.supportedCatalogIds.filter((id): id is string => typeof id === 'string')
        : [];
      const inline = Array.isArray(value.inlineCatalogs)
        ? value.inlineCatalogs.flatMap((catalog) =>
            isRecord(catalog) && typeof catalog.catalogId === 'string' ? [catalog.catalogId] : [],
          )
        : [];
      const entry = out.get(version) ?? { catalogIds: [], inlineIds: [] };
      entry.catalogIds.push(...ids.filter((id) => !entry.catalogIds.includes(id)));
      entry.inlineIds.push(...inline.filter((id) => !entry.inlineIds.includes(id)));
      out.set(version, entry);
    }
  }
  // A v0.9.1 renderer reads v0.9 envelopes too (its schema's version enum has both). The reverse
  // is not assumed: "v0.9" is also what a v0.9-only renderer sends, and it refuses "v0.9.1".
  const v091 = out.get('v0.9.1');
  if (v091 && !out.has('v0.9')) out.set('v0.9', v091);
  return out;
}

/**
 * Picks the protocol version an agent should emit to a renderer: the newest version both
 * support in which they share at least one catalog. The renderer's catalogs of a version are its
 * `supportedCatalogIds` plus, when the agent `acceptsInlineCatalogs`, the ids of its inline
 * catalogs. Both `a2uiClientCapabilities` and `a2uiRendererCapabilities` are read (a renderer that
 * speaks v0.9 and v1.0 sends both). A renderer advertising `"v0.9.1"` is taken to read v0.9 too;
 * one advertising only `"v0.9"` gets v0.9 (a v0.9-only renderer refuses `"v0.9.1"` envelopes).
 *
 * @param rendererCapabilities - The renderer's message metadata (with `a2uiClientCapabilities`
 *   and/or `a2uiRendererCapabilities`), the agent's `Connection` (its `clientCapabilities` and
 *   `rendererCapabilities`), or one versioned capabilities map.
 * @param agentSupported - What the agent supports, keyed by version.
 * @returns The version and the shared catalogs, or `undefined` when no version has a shared
 *   catalog (the agent cannot render anything for this renderer).
 *
 * @example
 * ```ts
 * const negotiated = negotiatedVersion(metadata, {
 *   'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] },
 *   'v1.0': { supportedCatalogIds: ['https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json'] },
 * });
 * ```
 */
export function negotiatedVersion(
  rendererCapabilities: unknown,
  agentSupported: AgentCapabilities,
): NegotiatedVersion | undefined {
  const renderer = rendererVersions(rendererCapabilities);
  const candidates: Array<[string, AgentVersionCapabilities]> = [];
  for (const [key, value] of Object.entries(agentSupported)) {
    const version = tryNormalize(key);
    if (version && isRecord(value)) candidates.push([version, value]);
  }
  candidates.sort(([a], [b]) => compareVersions(a, b));
  for (const [version, agent] of candidates) {
    const offered = renderer.get(version);
    if (!offered) continue;
    const agentIds = new Set(agent.supportedCatalogIds ?? []);
    const shared = offered.catalogIds.filter((id) => agentIds.has(id));
    if (agent.acceptsInlineCatalogs)
      for (const id of offered.inlineIds) if (!shared.includes(id)) shared.push(id);
    if (shared.length > 0) return { version, catalogIds: shared };
  }
  return undefined;
}
