/**
 * The protocol-version layer (issue 19): each A2UI version is one small {@link ProtocolVersion}
 * module — its envelope spellings, message kinds, metadata keys, MIME types, A2A extension URI,
 * catalog aliases, how its agent messages map onto the engine's one internal model, and how the
 * renderer's messages are written back in its shape. `MessageProcessor` routes every message by its
 * envelope `version` through a {@link ProtocolVersionRegistry}; nothing outside this folder branches
 * on a version string.
 *
 * Adding a version (v0.8, the final v1.0, v1.1) is a new module registered with
 * `registerProtocolVersion`, not a change to the processor. This interface is the contract the
 * `v0.8` reader implements: keep it small and stable.
 */
import type { Catalog } from '../catalog/catalog.js';
import type {
  ActionEvent,
  ClientError,
  ComponentInstance,
  FunctionCall,
} from '../protocol/messages.js';

/**
 * What an agent→renderer message means, independent of the version that carried it. The
 * processor applies these; a version module produces them in {@link ProtocolVersion.toInternal}.
 * Paths (`*Path`) are JSON Pointers into the ORIGINAL message, so errors point at what the agent
 * sent, whatever its version.
 */
export type InternalMessage =
  | InternalCreateSurface
  | InternalUpdateComponents
  | InternalUpdateDataModel
  | InternalDeleteSurface
  | InternalCallRendererFunction
  | InternalAgentFunctionResponse;

/** `createSurface` (v0.9 §2.1; v1.0 adds inline `components`/`dataModel` and `metadata`). */
export interface InternalCreateSurface {
  readonly kind: 'createSurface';
  readonly surfaceId: string;
  /** The surface's default catalog; v1.0 may leave it out (then every component names its own). */
  readonly catalogId: string | undefined;
  /** Pointer of `catalogId` in the original message, for errors. */
  readonly catalogIdPath: string;
  /** v0.9 `theme`; `undefined` when absent (v1.0 has none). */
  readonly theme: Record<string, unknown> | undefined;
  readonly sendDataModel: boolean;
  /** Components to apply right after creation (v1.0 inline `components`, v0.8 none). */
  readonly components: readonly ComponentInstance[] | undefined;
  /** Pointer of the `components` array in the original message. */
  readonly componentsPath: string;
  /** Initial root of the data model (v1.0 `dataModel`). */
  readonly dataModel: Record<string, unknown> | undefined;
  /** v1.0 `metadata` (`{extensions}`), kept on the surface as sent. */
  readonly metadata: Record<string, unknown> | undefined;
  /** Id of the component the surface renders from (v0.8 `beginRendering.root`). @default "root" */
  readonly rootId?: string;
}

/** `updateComponents` (§2.2): upsert by id. */
export interface InternalUpdateComponents {
  readonly kind: 'updateComponents';
  readonly surfaceId: string;
  readonly components: readonly ComponentInstance[];
  /** Pointer of the `components` array in the original message. */
  readonly componentsPath: string;
  /**
   * The reader has proved every component valid against the surface's catalog when that is one
   * of the version's {@link ProtocolVersion.builtinCatalogs} (v0.8: the message passed the v0.8
   * standard-catalog schema, whose every valid component upgrades to a valid basic one). The
   * processor then does not check them a second time; with any other catalog it still does.
   * @default false
   */
  readonly validated?: boolean;
}

/** `updateDataModel` (§2.3): write `value` at `path`, or remove what is there. */
export interface InternalUpdateDataModel {
  readonly kind: 'updateDataModel';
  readonly surfaceId: string;
  /** JSON Pointer into the data model; `""`/`"/"` is the root. */
  readonly path: string;
  /** True when the key at `path` is removed (v0.9: `value` omitted; v1.0: `value: null`). */
  readonly remove: boolean;
  /** The value written when `remove` is false. */
  readonly value: unknown;
}

/** `deleteSurface` (§2.4). */
export interface InternalDeleteSurface {
  readonly kind: 'deleteSurface';
  readonly surfaceId: string;
}

/** v1.0 `callRendererFunction`: the agent asks the renderer to run a catalog function. */
export interface InternalCallRendererFunction {
  readonly kind: 'callRendererFunction';
  readonly functionCallId: string;
  readonly callFunction: FunctionCall & { catalogId?: string };
}

/** v1.0 `agentFunctionResponse`: the agent answers a `callAgentFunction`. */
export interface InternalAgentFunctionResponse {
  readonly kind: 'agentFunctionResponse';
  readonly functionCallId: string;
  /** Exactly one of `value` / `error` is meaningful: `error` set means the call failed. */
  readonly value?: unknown;
  readonly error?: { readonly code: string; readonly message: string };
}

/** The kind of an {@link InternalMessage}. */
export type InternalMessageKind = InternalMessage['kind'];

/** A user action to send to the agent, before it is written in a version's shape. */
export interface InternalAction extends ActionEvent {
  /** v1.0 `action.userMessage`, resolved from `event.userMessage`; dropped by older versions. */
  userMessage?: string;
  /** v1.0 `action.metadata` (`{extensions}`); dropped by older versions. */
  metadata?: Record<string, unknown>;
}

/**
 * A stateful reader of one version's messages, for versions whose messages do not map one to one
 * onto internal messages (v0.8 buffers `surfaceUpdate` until `beginRendering`). A processor makes
 * one per version on first use and resets it with the processor.
 */
export interface ProtocolVersionReader {
  /**
   * The internal messages one wire message means: none (buffered), one, or several.
   * @throws A2uiError `VALIDATION_FAILED` with a JSON Pointer `path` when the message is malformed
   */
  read(message: Readonly<Record<string, unknown>>): readonly InternalMessage[];
  /** Forgets everything buffered (the processor was reset). */
  reset(): void;
}

/** Transport-facing names of one version (spec "Capabilities and metadata", A2A extension). */
export interface ProtocolVersionMetadataKeys {
  /** Metadata key of the renderer's capabilities: `a2uiClientCapabilities` / `a2uiRendererCapabilities`. */
  readonly capabilities: string;
  /** Metadata key of the renderer's data model: `a2uiClientDataModel` / `a2uiRendererDataModel`. */
  readonly dataModel: string;
  /** Key of this version inside a capabilities object (`{"v0.9": {supportedCatalogIds}}`). */
  readonly capabilitiesVersion: string;
}

/**
 * One A2UI protocol version. Implementations are plain frozen objects; see `v0-9.ts`, `v0-9-1.ts`
 * and `v1-0.ts` for the built-ins.
 *
 * Contract of {@link ProtocolVersion.toInternal}: it checks everything about the message that does
 * not need a catalog (envelope, required fields, types, unknown keys) and throws
 * `A2uiError('VALIDATION_FAILED', …, {path})` — path a JSON Pointer into the message — on the
 * first problem. Components are checked afterwards by the processor against the catalog each one
 * resolves to.
 */
export interface ProtocolVersion {
  /** Canonical name, e.g. `"v0.9"`, `"v0.9.1"`, `"v1.0"`, `"v0.8"`. */
  readonly name: string;
  /**
   * Versions of one family share a wire model, so a surface created in one accepts messages of
   * another (v0.9 and v0.9.1 are both `"v0.9"`). A message of another family on a surface is a
   * spec error.
   */
  readonly family: string;
  /**
   * Envelope `version` values this module reads. The first one is what it writes. Empty for a
   * version whose messages carry no `version` (v0.8): a message without `version` goes to the
   * version-less module whose `agentMessageKinds` has its kind.
   */
  readonly envelopeVersions: readonly string[];
  /** Agent→renderer message kinds (`createSurface`, …, `beginRendering` in v0.8). */
  readonly agentMessageKinds: readonly string[];
  /** Renderer→agent message kinds (`action`, `error`, … `userAction` in v0.8). */
  readonly rendererMessageKinds: readonly string[];
  /** Names of this version's transport metadata. */
  readonly metadataKeys: ProtocolVersionMetadataKeys;
  /** MIME types of an A2UI payload: the first is written, all are accepted. */
  readonly mimeTypes: readonly string[];
  /** URI of the A2UI A2A extension for this version. */
  readonly a2aExtensionUri: string;
  /**
   * Catalog ids that name another catalog in this version, alias → registered id (v0.9.1 doc
   * examples name the v0.9 basic catalog by a `v0_9_1` URL).
   */
  readonly catalogAliases: Readonly<Record<string, string>>;
  /** The catalogs this version defines (its basic catalog), created on first use. */
  builtinCatalogs(): readonly Catalog[];
  /**
   * True when a ChildList template also iterates the own keys of an object, in key order, with
   * scope `<list path>/<key>` (v0.8: lists arrive as `dataModelUpdate` `valueMap`s, keyed `"0"`,
   * `"1"`, … or by any key, and the official v0.8 renderers iterate maps). Later versions iterate
   * arrays only (v0.9 §7.4).
   * @default false
   */
  readonly templatesIterateObjects?: boolean;
  /**
   * True when the processor applies this version's messages as they are, without
   * {@link toInternal} (v0.9 and v0.9.1: the engine's own model, kept on the hot path).
   */
  readonly native: boolean;
  /**
   * Maps one message of this version (its `version` already matched) onto the internal model.
   * @throws A2uiError `VALIDATION_FAILED` with a JSON Pointer `path` when the message is malformed
   */
  toInternal(message: Readonly<Record<string, unknown>>): InternalMessage;
  /**
   * A stateful reader; when present the processor reads through it instead of `toInternal`.
   * @default none
   */
  createReader?(): ProtocolVersionReader;
  /**
   * The version's own validators that load on first need (v0.8's schemas): `undefined` when they
   * are loaded, else the load under way. `MessageProcessor` holds a message of this version until
   * it settles (the validators of its catalogs are awaited the same way).
   * @default none (nothing to load)
   */
  prepareValidators?(): Promise<void> | undefined;
  /** The renderer→agent `action` message in this version's shape. */
  encodeAction(action: InternalAction): Record<string, unknown>;
  /** The renderer→agent `error` message in this version's shape. */
  encodeError(error: ClientError): Record<string, unknown>;
  /** The renderer data model metadata object (`{version, surfaces}`) in this version's shape. */
  encodeDataModel(surfaces: Record<string, unknown>): Record<string, unknown>;
}
