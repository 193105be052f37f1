/**
 * Applies {@link InternalMessage}s — what a non-native version module (v1.0, v0.8) makes of its
 * messages — to the processor's surfaces, and holds the version rules every path shares: a
 * message of another version family never touches a surface, catalogs of one surface share its
 * version, keys of another version's messages are a clear error.
 */
import type { Catalog } from '../catalog/catalog.js';
import { createCatalog } from '../catalog/catalog.js';
import type { CatalogRegistry } from '../catalog/catalog-registry.js';
import { findCompositionViolation, hasCompositionRules } from '../catalog/composition.js';
import { A2uiError, toA2uiError } from '../errors/a2ui-error.js';
import type { ClientError, ComponentInstance } from '../protocol/messages.js';
import { ModuleNotLoadedError } from '../validation/lazy-module.js';
import type {
  InternalAgentFunctionResponse,
  InternalCallRendererFunction,
  InternalCreateSurface,
  InternalMessage,
  ProtocolVersion,
  ProtocolVersionReader,
} from '../versions/protocol-version.js';
import type { ProtocolVersionRegistry } from '../versions/protocol-version-registry.js';
import { readSurfaceId } from '../versions/read-envelope.js';
import { checkComponents } from './check-components.js';
import type { DataModelLimits } from './data-model.js';
import { parsePointer } from './json-pointer.js';
import { MessageFailure } from './message-failure.js';
import type { Notifier } from './notifier.js';
import { checkCatalogVersion, selectCatalog } from './select-catalog.js';
import { surfaceExistsMessage, surfaceNotFoundMessage } from './spec-wording.js';
import { Surface } from './surface.js';
import { rejectTopologyProblems } from './topology.js';

/** Receives the v1.0 function-call messages of the agent. */
export type FunctionMessageListener = (
  message: InternalCallRendererFunction | InternalAgentFunctionResponse,
  version: ProtocolVersion,
) => void;

/** What the applier shares with its `MessageProcessor`. */
export interface InternalApplierHost {
  readonly catalogs: CatalogRegistry;
  readonly surfaces: Map<string, Surface>;
  readonly validate: boolean;
  /** Reject updates that leave the component tree broken (`MessageProcessorOptions.strict`). */
  readonly strict: boolean;
  readonly limits: Required<DataModelLimits> & {
    readonly maxComponentsPerSurface: number;
    readonly maxSurfaces: number;
  };
  readonly notifier: Notifier;
  readonly versions: ProtocolVersionRegistry;
  report(error: ClientError): void;
  addSurface(surface: Surface): void;
  removeSurface(surface: Surface): void;
}

/** Turns an error of a version module or catalog selection into a {@link MessageFailure}. */
function toFailure(error: unknown, surfaceId: string | undefined): MessageFailure {
  if (error instanceof MessageFailure) return error;
  // Not a failure of the message: the processor holds it until the validator has loaded.
  if (error instanceof ModuleNotLoadedError) throw error;
  const failure = toA2uiError(error);
  const target = failure.surfaceId ?? surfaceId;
  if (failure.code === 'VALIDATION_FAILED')
    return MessageFailure.validation(target, failure.path ?? '', failure.message);
  return MessageFailure.generic(
    failure.code,
    target,
    failure.message,
    failure.path === undefined ? {} : { path: failure.path },
  );
}

/** Applies internal messages for a `MessageProcessor`; see the module comment. */
export class InternalApplier {
  readonly #host: InternalApplierHost;
  readonly #functionListeners = new Set<FunctionMessageListener>();
  readonly #readers = new Map<ProtocolVersion, ProtocolVersionReader>();

  constructor(host: InternalApplierHost) {
    this.#host = host;
  }

  /** Drops the state of every stateful reader (the processor was reset). */
  reset(): void {
    for (const reader of this.#readers.values()) reader.reset();
  }

  #read(version: ProtocolVersion, message: Record<string, unknown>): readonly InternalMessage[] {
    if (!version.createReader) return [version.toInternal(message)];
    let reader = this.#readers.get(version);
    if (!reader) {
      reader = version.createReader();
      this.#readers.set(version, reader);
    }
    return reader.read(message);
  }

  onFunctionMessage(listener: FunctionMessageListener): () => void {
    const entry: FunctionMessageListener = (message, version) => listener(message, version);
    this.#functionListeners.add(entry);
    return () => {
      this.#functionListeners.delete(entry);
    };
  }

  /**
   * Throws the "mixes protocol versions" error when `key` is a message kind of another family.
   * @throws MessageFailure `VALIDATION_FAILED`
   */
  checkForeignKey(key: string, version: ProtocolVersion, surfaceId?: string): void {
    for (const other of this.#host.versions.values()) {
      if (other.family === version.family || !other.agentMessageKinds.includes(key)) continue;
      // A version-less message (v0.8) says nothing: name what its kinds made it.
      const claim =
        version.envelopeVersions.length === 0
          ? `this message has no "version" and a ${version.name} message kind`
          : `this message says "version": "${version.name}"`;
      throw MessageFailure.validation(
        surfaceId,
        `/${key}`,
        `Message mixes protocol versions: "${key}" is a ${other.name} message, but ${claim}.`,
      );
    }
  }

  /** @throws MessageFailure `CATALOG_VERSION_MISMATCH` */
  checkCatalogFamily(catalog: Catalog, version: ProtocolVersion, surfaceId: string): void {
    try {
      checkCatalogVersion(catalog, version.family);
    } catch (error) {
      throw toFailure(error, surfaceId);
    }
  }

  /** @throws MessageFailure `VALIDATION_FAILED` when `surface` was created in another family */
  checkSurfaceFamily(surface: Surface, version: ProtocolVersion, kind: string): void {
    if (surface.protocolVersion.family === version.family) return;
    throw MessageFailure.validation(
      surface.surfaceId,
      '/version',
      `Surface "${surface.surfaceId}" was created in ${surface.protocolVersion.name}; a ${version.name} ${kind} cannot change it (one surface speaks one protocol version).`,
    );
  }

  /** @throws MessageFailure `SURFACE_NOT_FOUND`, or the version mismatch */
  requireSurface(surfaceId: string, kind: string, version: ProtocolVersion): Surface {
    const surface = this.#host.surfaces.get(surfaceId);
    if (!surface) {
      throw MessageFailure.generic(
        'SURFACE_NOT_FOUND',
        surfaceId,
        surfaceNotFoundMessage(surfaceId, kind),
      );
    }
    this.checkSurfaceFamily(surface, version, kind);
    return surface;
  }

  /** Applies one message of a non-native version. @throws MessageFailure */
  apply(version: ProtocolVersion, message: Record<string, unknown>): void {
    let internals: readonly InternalMessage[];
    let surfaceId: string | undefined;
    try {
      for (const key of Object.keys(message)) {
        surfaceId ??= readSurfaceId(message[key]);
        if (key !== 'version' && !version.agentMessageKinds.includes(key))
          this.checkForeignKey(key, version, surfaceId);
      }
      internals = this.#read(version, message);
    } catch (error) {
      throw toFailure(error, surfaceId);
    }
    // A message that changed nothing yet (v0.8 buffers until `beginRendering`) must still not
    // name a surface of another version silently: it could never apply there.
    const existing = surfaceId === undefined ? undefined : this.#host.surfaces.get(surfaceId);
    if (internals.length === 0 && existing) {
      const kind = Object.keys(message).find((key) => key !== 'version') ?? 'message';
      this.checkSurfaceFamily(existing, version, kind);
    }
    for (const internal of internals) this.#applyOne(version, internal);
  }

  #applyOne(version: ProtocolVersion, internal: InternalMessage): void {
    switch (internal.kind) {
      case 'createSurface':
        this.#createSurface(version, internal);
        return;
      case 'updateComponents': {
        const surface = this.requireSurface(internal.surfaceId, internal.kind, version);
        // Checked once: a reader's proof holds for its version's own catalogs only.
        const proven =
          internal.validated === true && version.builtinCatalogs().includes(surface.catalog);
        this.#applyComponents(surface, internal.components, internal.componentsPath, true, proven);
        return;
      }
      case 'updateDataModel': {
        const surface = this.requireSurface(internal.surfaceId, internal.kind, version);
        this.#writeData(surface, internal.path, internal.remove ? undefined : internal.value);
        return;
      }
      case 'deleteSurface': {
        const surface = this.#host.surfaces.get(internal.surfaceId);
        // Deleting an unknown surface is a silent no-op, as in the reference processor.
        if (!surface) return;
        this.checkSurfaceFamily(surface, version, internal.kind);
        surface.dispose();
        this.#host.removeSurface(surface);
        return;
      }
      default:
        this.#functionMessage(version, internal);
    }
  }

  #functionMessage(
    version: ProtocolVersion,
    message: InternalCallRendererFunction | InternalAgentFunctionResponse,
  ): void {
    if (this.#functionListeners.size === 0) {
      throw MessageFailure.generic(
        message.kind === 'callRendererFunction' ? 'INVALID_FUNCTION_CALL' : 'NOT_SUPPORTED',
        undefined,
        `This renderer handles no ${message.kind} messages.`,
        { functionCallId: message.functionCallId },
      );
    }
    for (const listener of [...this.#functionListeners]) listener(message, version);
  }

  #createSurface(version: ProtocolVersion, message: InternalCreateSurface): void {
    const { surfaceId } = message;
    const host = this.#host;
    const aliased =
      message.catalogId !== undefined && Object.hasOwn(version.catalogAliases, message.catalogId)
        ? version.catalogAliases[message.catalogId]
        : message.catalogId;
    let catalog: Catalog;
    if (aliased === undefined) {
      // v1.0 without a default catalog: every component names its own.
      catalog = createCatalog({ catalogId: '', components: [], protocolVersion: version.name });
    } else {
      const found = host.catalogs.get(aliased);
      if (!found) {
        throw MessageFailure.generic(
          'CATALOG_NOT_FOUND',
          surfaceId,
          `Catalog not found: ${aliased}. This client supports: ${host.catalogs.catalogIds.join(', ') || 'none'}.`,
          { path: message.catalogIdPath },
        );
      }
      this.checkCatalogFamily(found, version, surfaceId);
      catalog = found;
    }
    if (host.surfaces.has(surfaceId)) {
      throw MessageFailure.generic('SURFACE_EXISTS', surfaceId, surfaceExistsMessage(surfaceId));
    }
    if (host.surfaces.size >= host.limits.maxSurfaces) {
      throw MessageFailure.generic(
        'LIMIT_EXCEEDED',
        surfaceId,
        `At most ${host.limits.maxSurfaces} surfaces may exist at once.`,
      );
    }
    const surface = new Surface({
      surfaceId,
      catalog,
      defaultCatalogId: aliased,
      protocolVersion: version,
      // Absent ones are passed as undefined (the surface's defaults), not spread in: spreading
      // conditional objects was most of this method's own time.
      rootId: message.rootId,
      metadata: message.metadata,
      theme: message.theme,
      sendDataModel: message.sendDataModel,
      notifier: host.notifier,
      limits: { maxDepth: host.limits.maxDepth, maxArrayIndex: host.limits.maxArrayIndex },
    });
    try {
      if (message.dataModel !== undefined) this.#writeData(surface, '/', message.dataModel);
      if (message.components !== undefined)
        // Inline components may be a first part the agent completes with updateComponents, so
        // the tree is checked on updateComponents only (as the suite's strict cases expect).
        this.#applyComponents(surface, message.components, message.componentsPath, false);
    } catch (error) {
      // Nothing of a rejected createSurface survives (the previous state stays intact).
      surface.dispose();
      throw error;
    }
    host.surfaces.set(surfaceId, surface);
    host.addSurface(surface);
  }

  #writeData(surface: Surface, path: string, value: unknown): void {
    try {
      surface.dataModel.setAt(parsePointer(path), value);
    } catch (error) {
      const failure = toA2uiError(error, 'DATA_ERROR');
      throw MessageFailure.generic(failure.code, surface.surfaceId, failure.message, {
        path: failure.path ?? path,
      });
    }
  }

  /** @param path - pointer of the components array; the component's is built only for an error */
  #catalogOf(surface: Surface, component: ComponentInstance, path: string, index: number): Catalog {
    const own = component.catalogId;
    if (own === undefined && surface.defaultCatalogId !== undefined) return surface.catalog;
    try {
      return selectCatalog({
        surfaceId: surface.surfaceId,
        surfaceVersion: surface.protocolVersion.family,
        defaultCatalogId: surface.defaultCatalogId,
        catalogId: typeof own === 'string' ? own : undefined,
        getCatalog: (catalogId) => this.#host.catalogs.get(catalogId),
        subject: `Component '${component.id}'`,
      });
    } catch (error) {
      const failure = toFailure(error, surface.surfaceId);
      if (A2uiError.isInstance(error)) failure.clientError.path = `${path}/${index}/catalogId`;
      throw failure;
    }
  }

  #applyComponents(
    surface: Surface,
    incoming: readonly ComponentInstance[],
    path: string,
    checkTree: boolean,
    proven = false,
  ): void {
    const host = this.#host;
    // Indexed loops, and no set unless an id is new: this runs for every components message.
    const catalogs: Catalog[] = new Array(incoming.length);
    let foreign = false;
    for (let index = 0; index < incoming.length; index++) {
      const catalog = this.#catalogOf(surface, incoming[index]!, path, index);
      catalogs[index] = catalog;
      if (catalog !== surface.catalog) foreign = true;
    }
    // Proven components resolve to the surface's catalog (they name none of their own).
    const components =
      host.validate && !(proven && !foreign)
        ? checkComponents(incoming, { surface, catalogs, path, report: host.report })
        : incoming;
    this.#checkComposition(surface, components, catalogs, path);
    let added: Set<string> | undefined;
    for (let index = 0; index < components.length; index++) {
      const { id } = components[index]!;
      if (surface.components.has(id)) continue;
      added ??= new Set();
      added.add(id);
    }
    if (surface.components.size + (added?.size ?? 0) > host.limits.maxComponentsPerSurface) {
      throw MessageFailure.generic(
        'LIMIT_EXCEEDED',
        surface.surfaceId,
        `Surface "${surface.surfaceId}" would hold more than ${host.limits.maxComponentsPerSurface} components.`,
      );
    }
    if (host.strict && checkTree) rejectTopologyProblems(surface, components, path);
    if (foreign) for (const catalog of catalogs) surface.useCatalog(catalog);
    for (const component of components) surface.components.upsert(component);
  }

  /** `allowedParents` / `allowedChildren`, only when a catalog involved declares any. */
  #checkComposition(
    surface: Surface,
    components: readonly ComponentInstance[],
    catalogs: readonly Catalog[],
    path: string,
  ): void {
    // Checked without building a set of the catalogs: this runs for every components message.
    if (!catalogs.some(hasCompositionRules) && !surface.catalogs.some(hasCompositionRules)) return;
    const incoming = new Map(components.map((component, index) => [component.id, index]));
    const violation = findCompositionViolation(
      components,
      (id) => {
        const index = incoming.get(id);
        if (index !== undefined) {
          const component = components[index]!;
          return { type: component.component, catalog: catalogs[index], component };
        }
        const record = surface.components.get(id);
        return record
          ? {
              type: record.type,
              catalog: surface.catalogFor(record.properties),
              component: record.properties,
            }
          : undefined;
      },
      () => [...surface.components.values()].map((record) => record.id),
      surface.rootId,
    );
    if (!violation) return;
    const index = incoming.get(violation.componentId);
    throw MessageFailure.validation(
      surface.surfaceId,
      index === undefined ? path : `${path}/${index}`,
      violation.message,
      violation.code,
    );
  }
}
