/**
 * Applies server→client messages to surfaces, exactly as spec §2 and digest §5, §7 define, and
 * turns every failure into a spec `error` message while keeping the previous state.
 */
import type { Catalog } from '../catalog/catalog.js';
import { CatalogRegistry } from '../catalog/catalog-registry.js';
import { toA2uiError } from '../errors/a2ui-error.js';
import { A2UI_VERSION, VALIDATION_FAILED } from '../protocol/constants.js';
import {
  getServerMessageKind,
  isRecord,
  SERVER_MESSAGE_KINDS,
  type ServerMessageKind,
  setOwn,
} from '../protocol/guards.js';
import type {
  ClientDataModel,
  ClientError,
  ComponentInstance,
  CreateSurface,
  Theme,
  UpdateComponents,
  UpdateDataModel,
} from '../protocol/messages.js';
import { familyDocumentsModule } from '../validation/family-documents.js';
import { findJsonViolation } from '../validation/find-depth-violation.js';
import type { ValidationIssue } from '../validation/index.js';
import { ModuleNotLoadedError } from '../validation/lazy-module.js';
import {
  dropPlainNotes,
  notePlainText,
  pointerAsSent,
} from '../versions/normalize-reserved-keys.js';
import type { ProtocolVersion } from '../versions/protocol-version.js';
import type { ProtocolVersionRegistry } from '../versions/protocol-version-registry.js';
import { unsupportedVersionMessage } from '../versions/protocol-version-registry.js';
import { defaultProtocolVersions } from '../versions/protocol-versions.js';
import { V0_9_MULTIPLE_KINDS_MESSAGE } from '../versions/v0-9.js';
import { checkComponents } from './check-components.js';
import { type DataModelLimits, DEFAULT_DATA_MODEL_LIMITS } from './data-model.js';
import { type FunctionMessageListener, InternalApplier } from './internal-applier.js';
import { encodeSegment, parsePointer } from './json-pointer.js';
import { MessageFailure } from './message-failure.js';
import { parseMessageInput } from './message-input.js';
import { Notifier } from './notifier.js';
import { catalogVersionFamily } from './select-catalog.js';
import {
  missingIdMessage,
  missingTypeMessage,
  requiredStringMessage,
  surfaceExistsMessage,
  themeValidationMessage,
} from './spec-wording.js';
import { Surface } from './surface.js';
import { rejectTopologyProblems } from './topology.js';

/** Limits of a {@link MessageProcessor}; every one is configurable. */
export interface ProcessorLimits extends DataModelLimits {
  /** Largest message, in UTF-8 bytes, accepted as JSON text. @default 1048576 */
  maxMessageBytes?: number;
  /** Most components one surface may hold. @default 10000 */
  maxComponentsPerSurface?: number;
  /** Most surfaces alive at once. @default 100 */
  maxSurfaces?: number;
}

export const DEFAULT_PROCESSOR_LIMITS: Required<ProcessorLimits> = {
  ...DEFAULT_DATA_MODEL_LIMITS,
  maxMessageBytes: 1_048_576,
  maxComponentsPerSurface: 10_000,
  maxSurfaces: 100,
};

/** Options of {@link MessageProcessor}. */
export interface MessageProcessorOptions {
  /** Catalogs surfaces may use. @default none — pass `createDefaultCatalogs()` for basic + minimal */
  catalogs?: CatalogRegistry | Iterable<Catalog>;
  /**
   * Validate every message against the v0.9 schema and its surface's catalog. Turn off only for
   * trusted, pre-validated input.
   * @default true
   */
  validate?: boolean;
  limits?: ProcessorLimits;
  /**
   * Strict structure: after each `updateComponents` the surface's components must form one tree
   * under `root` — no missing root, circular reference, dangling child reference or orphaned
   * component (`findTopologyProblems`) — else the message is rejected with `VALIDATION_FAILED`
   * and the surface keeps its components. Off (lenient, for progressive rendering, where a parent
   * often arrives before its children), the renderer shows a placeholder for what is missing.
   * @default false
   */
  strict?: boolean;
  /**
   * The protocol versions the processor reads, by envelope `version`.
   * @default defaultProtocolVersions (v0.9, v0.9.1, v1.0, and any registered with `registerProtocolVersion`)
   */
  protocolVersions?: ProtocolVersionRegistry;
  /**
   * Distinct errors remembered for de-duplication (oldest forgotten first): `onError` listeners
   * (and so the agent) hear each distinct error once, by code, surface, path and message.
   * @default 1000
   */
  maxRememberedErrors?: number;
}

/** Outcome of {@link MessageProcessor.process}. */
export interface ProcessResult {
  /** Messages applied (fully or with graceful degradation). */
  readonly applied: number;
  /** One spec `error` object per problem, ready to send to the agent (§3.2). */
  readonly errors: readonly ClientError[];
  /**
   * True when some of the input waits for a validator that loads on first need (a built-in
   * catalog's or protocol version's chunk, in a browser): it applies, in order with everything
   * processed after it, once that has loaded; its errors then reach the `onError` listeners
   * (not this result). `whenIdle()` resolves then. Never true where the validators were imported
   * statically (Node). Absent when nothing waits.
   */
  readonly waiting?: true;
}

/** `#apply` has checked the whole message's nesting and numbers before any validator runs. */
const JSON_CHECKED = Object.freeze({ jsonChecked: true });

type ErrorListener = (error: ClientError) => void;

/**
 * The client-side protocol engine: surfaces, components and data models built from a stream of
 * server messages.
 *
 * - Accepts one message, an array, `{messages}`, a sample file `{name, description, messages}`, or
 *   JSON text of any of those (§1). Batches are non-transactional: a failing message is reported
 *   and the rest still apply; subscribers hear about a batch once, at its end.
 * - Never throws for bad input: `process` returns spec `error` objects (`VALIDATION_FAILED` with a
 *   JSON Pointer into the offending message, or a named generic code) and the state before the
 *   failing message survives.
 *
 * @example
 * ```ts
 * const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
 * const { errors } = processor.process(line);
 * ```
 */
export class MessageProcessor {
  readonly catalogs: CatalogRegistry;
  readonly notifier = new Notifier();
  readonly #validate: boolean;
  readonly #strict: boolean;
  readonly #limits: Required<ProcessorLimits>;
  readonly #surfaces = new Map<string, Surface>();
  #surfaceList: readonly Surface[] = [];
  readonly #listeners = new Set<() => void>();
  readonly #errorListeners = new Set<ErrorListener>();
  /** Errors of the `process` call under way, including those of degraded (applied) messages. */
  #batchErrors: ClientError[] | undefined;
  /** Keys of the errors listeners heard, oldest first (the one de-duplication of every error). */
  readonly #heard = new Set<string>();
  readonly #maxRememberedErrors: number;
  readonly #versions: ProtocolVersionRegistry;
  /** The version each reported error is written in, when it is not its surface's. */
  readonly #errorVersions = new WeakMap<ClientError, ProtocolVersion>();
  /** The version of the message being applied (errors about it are written in its shape). */
  #current: ProtocolVersion | undefined;
  /**
   * The v1.0 message being applied, as the agent wrote it: the engine reads its `@` keys as bare
   * ones (`@path` → `path`, `@@x` → `@x`), and errors about it point at the keys as written.
   */
  #written: Record<string, unknown> | undefined;
  readonly #internal: InternalApplier;
  /** Inputs held until a validator loads, in arrival order (each a message list or raw input). */
  readonly #waiting: unknown[] = [];
  /** Settles when the held inputs have been applied (or failed). */
  #drained: Promise<void> | undefined;
  /** The held inputs are being applied. */
  #draining = false;
  /** The last version whose validators (its own and its catalogs') were found loaded. */
  #preparedVersion: ProtocolVersion | undefined;

  constructor(options: MessageProcessorOptions = {}) {
    this.catalogs =
      options.catalogs instanceof CatalogRegistry
        ? options.catalogs
        : new CatalogRegistry(options.catalogs ?? []);
    this.#validate = options.validate ?? true;
    this.#strict = options.strict ?? false;
    this.#maxRememberedErrors = options.maxRememberedErrors ?? 1000;
    this.#limits = { ...DEFAULT_PROCESSOR_LIMITS, ...options.limits };
    this.#versions = options.protocolVersions ?? defaultProtocolVersions;
    this.#internal = new InternalApplier({
      catalogs: this.catalogs,
      surfaces: this.#surfaces,
      validate: this.#validate,
      strict: this.#strict,
      limits: this.#limits,
      notifier: this.notifier,
      report: (error) => this.#report(error),
      addSurface: (surface) => this.#setSurfaceList([...this.#surfaceList, surface]),
      removeSurface: (surface) => {
        this.#surfaces.delete(surface.surfaceId);
        this.#setSurfaceList(this.#surfaceList.filter((entry) => entry !== surface));
      },
      versions: this.#versions,
    });
  }

  /** The protocol versions this processor reads. */
  get protocolVersions(): ProtocolVersionRegistry {
    return this.#versions;
  }

  /**
   * The version an error is to be written in for the agent: its surface's, else that of the
   * message that caused it, else v0.9. Use `version.encodeError(error)` to build the message.
   */
  protocolVersionOf(error: ClientError): ProtocolVersion {
    const surface = error.surfaceId === undefined ? undefined : this.#surfaces.get(error.surfaceId);
    return (
      surface?.protocolVersion ??
      this.#errorVersions.get(error) ??
      this.#versions.byName('v0.9') ??
      this.#versions.values().next().value!
    );
  }

  /**
   * Calls `listener` for each v1.0 `callRendererFunction` / `agentFunctionResponse` the agent
   * sends (the function-call layer answers them).
   */
  onFunctionMessage(listener: FunctionMessageListener): () => void {
    return this.#internal.onFunctionMessage(listener);
  }

  /** The configured limits. */
  get limits(): Readonly<Required<ProcessorLimits>> {
    return this.#limits;
  }

  /**
   * Applies `input`. Never throws for bad input.
   * @param input - a message, an array, `{messages}`, a sample file, or JSON text of one of those
   */
  process(input: unknown): ProcessResult {
    // Behind a held input, everything waits its turn: nothing overtakes, not even an error (nor
    // input a listener sends while the held inputs are being applied).
    if (this.#waiting.length > 0 || this.#draining) {
      this.#waiting.push(input);
      return { applied: 0, errors: [], waiting: true };
    }
    return this.#run(input);
  }

  #run(input: unknown): ProcessResult {
    const errors: ClientError[] = [];
    const outer = this.#batchErrors;
    this.#batchErrors = errors;
    try {
      return this.#processInto(input, errors);
    } finally {
      this.#batchErrors = outer;
    }
  }

  #processInto(input: unknown, errors: ClientError[]): ProcessResult {
    let applied = 0;
    let parsed: ReturnType<typeof parseMessageInput>;
    try {
      parsed = parseMessageInput(input, { maxMessageBytes: this.#limits.maxMessageBytes });
    } catch (error) {
      // Only in-process callers can get here (a throwing getter or Proxy); JSON text cannot.
      this.#report(toClientError(error, undefined));
      return { applied, errors };
    }
    if (!parsed.success) {
      for (const issue of parsed.errors) this.#report(issueToError(issue));
      return { applied, errors };
    }
    if (typeof input === 'string') notePlainText(input, parsed.value);
    const messages = parsed.value;
    let waiting: true | undefined;
    this.notifier.batch(() => {
      for (let index = 0; index < messages.length; index++) {
        const message = messages[index];
        try {
          this.#current = undefined;
          this.#written = undefined;
          this.#apply(message);
          applied++;
        } catch (error) {
          if (error instanceof ModuleNotLoadedError) {
            // Nothing of this message was applied (validators run before any change): hold it
            // and the rest of the batch until the validator has loaded.
            this.#hold(messages.slice(index), error.ready);
            waiting = true;
            break;
          }
          const clientError = this.#asWritten(toClientError(error, message));
          if (this.#current) this.#errorVersions.set(clientError, this.#current);
          this.#report(clientError);
        }
      }
      this.#written = undefined;
      dropPlainNotes();
    });
    return waiting ? { applied, errors, waiting } : { applied, errors };
  }

  /**
   * Resolves once no input waits for a validator to load (at once when none does). Errors of
   * the inputs applied meanwhile went to the `onError` listeners.
   */
  async whenIdle(): Promise<void> {
    while (this.#drained) await this.#drained;
  }

  /**
   * Holds `messages` (a batch's rest) until `ready` settles: ahead of every other held input
   * (they came later, or come after it in the drain under way).
   */
  #hold(messages: readonly unknown[], ready: Promise<void>): void {
    this.#waiting.unshift(messages);
    this.#drained = ready.then(
      () => this.#drain(),
      (error: unknown) => this.#failHeld(error),
    );
  }

  /** Applies the held inputs in order; stops (keeping the rest) if one waits again. */
  #drain(): void {
    this.#drained = undefined;
    this.#draining = true;
    try {
      while (this.#waiting.length > 0 && this.#drained === undefined)
        this.#run(this.#waiting.shift());
    } finally {
      this.#draining = false;
    }
  }

  /** A validator could not load: each held message is reported, not applied; later input retries. */
  #failHeld(cause: unknown): void {
    this.#drained = undefined;
    const failure = toA2uiError(cause, 'MODULE_NOT_LOADED');
    for (const input of this.#waiting.splice(0)) {
      const parsed = parseMessageInput(input, { maxMessageBytes: this.#limits.maxMessageBytes });
      const messages = parsed.success ? parsed.value : [input];
      for (const message of messages) this.#report(toClientError(failure, message));
    }
  }

  /** The surface `surfaceId`, if it exists. */
  getSurface(surfaceId: string): Surface | undefined {
    return this.#surfaces.get(surfaceId);
  }

  /** Live surfaces in creation order; the array identity changes only when the set changes. */
  getSurfaces(): readonly Surface[] {
    return this.#surfaceList;
  }

  /** Calls `listener` (once per batch) when a surface is created or deleted. */
  subscribe(listener: () => void): () => void {
    const entry = () => listener();
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /**
   * Calls `listener` for each distinct error (by code, surface, path and message) that `process`
   * or {@link reportError} reports: validation, state, data, binding and renderer errors alike.
   * A repeat is left out (it is still in that call's `ProcessResult.errors`); after `reset()`,
   * errors are news again.
   */
  onError(listener: ErrorListener): () => void {
    const entry: ErrorListener = (error) => listener(error);
    this.#errorListeners.add(entry);
    return () => {
      this.#errorListeners.delete(entry);
    };
  }

  /**
   * `a2uiClientDataModel` for surfaces created with `sendDataModel: true`, or `undefined` when
   * there are none (§4.2).
   */
  getClientDataModel(): ClientDataModel | undefined {
    let surfaces: Record<string, unknown> | undefined;
    for (const surface of this.#surfaceList) {
      // v1.0 surfaces too: one data model for every surface; the client names its key after the
      // link's version (rendererDataModelEntry); v0.8 surfaces never set sendDataModel.
      if (!surface.sendDataModel) continue;
      surfaces ??= {};
      setOwn(surfaces, surface.surfaceId, surface.dataModel.getSnapshot());
    }
    return surfaces ? { version: A2UI_VERSION, surfaces } : undefined;
  }

  /** Deletes every surface (a transport `reset`, or the end of a session). */
  reset(): void {
    // Input held for a validator belonged to the session that ends here.
    this.#waiting.length = 0;
    this.#heard.clear();
    this.#internal.reset();
    this.notifier.batch(() => {
      for (const surface of this.#surfaceList) surface.dispose();
      this.#surfaces.clear();
      this.#setSurfaceList([]);
    });
  }

  /**
   * Reports an error raised outside `process` (a binding, a renderer) through the error
   * listeners, once per distinct error.
   */
  reportError(error: ClientError): void {
    this.#report(error);
  }

  /** `error` with its `path` pointing into the v1.0 message being applied as it was written. */
  #asWritten(error: ClientError): ClientError {
    if (this.#written === undefined || typeof error.path !== 'string') return error;
    const path = pointerAsSent(this.#written, error.path);
    return path === error.path ? error : { ...error, path };
  }

  #report(reported: ClientError): void {
    const error = this.#asWritten(reported);
    this.#batchErrors?.push(error);
    const key = `${error.code}\u0000${error.surfaceId ?? ''}\u0000${String(error.path ?? '')}\u0000${error.message}`;
    if (this.#heard.has(key)) return;
    this.#heard.add(key);
    if (this.#heard.size > this.#maxRememberedErrors)
      this.#heard.delete(this.#heard.values().next().value!);
    for (const listener of [...this.#errorListeners]) listener(error);
  }

  #apply(message: unknown): void {
    // Before any recursive code (the validators, JSON.stringify) sees the message: too deep, or a
    // number JSON cannot carry (`1e999` parses as Infinity), whether or not validation is on.
    const violation = findJsonViolation(message, this.#limits.maxDepth);
    if (violation) {
      const kind = getServerMessageKind(message);
      const surfaceId = kind && readSurfaceId((message as Record<string, unknown>)[kind]);
      throw validationFailure(surfaceId, violation.path, violation.message);
    }
    if (!isRecord(message))
      throw validationFailure(undefined, '', 'A server message must be a JSON object.');
    // The one per-message routing step: the envelope `version` picks the version module.
    const version =
      this.#versions.find(message.version) ??
      (message.version === undefined ? this.#versions.findVersionless(message) : undefined);
    if (version === undefined) throw this.#versionFailure(message);
    this.#current = version;
    if (version !== this.#preparedVersion) this.#prepare(version);
    if (version.family === 'v1.0') this.#written = message;
    if (!version.native) {
      this.#internal.apply(version, message);
      return;
    }
    const kind = this.#checkEnvelope(message, version);
    const body = (message as Record<ServerMessageKind, Record<string, unknown>>)[kind];
    switch (kind) {
      case 'createSurface':
        this.#createSurface(message, body as unknown as CreateSurface, version);
        return;
      case 'updateComponents':
        this.#updateComponents(body as unknown as UpdateComponents, version);
        return;
      case 'updateDataModel':
        this.#updateDataModel(message, body as unknown as UpdateDataModel, version);
        return;
      case 'deleteSurface':
        this.#deleteSurface(message, body.surfaceId as string, version);
        return;
    }
  }

  /**
   * Checks that the validators a message of `version` may need have loaded: the version's own
   * and, for a version read through the internal model (whose readers keep state, v0.8's
   * buffering), those of the catalogs of its family. A native (v0.9) message needs only its
   * surface's catalog, whose validator throws `ModuleNotLoadedError` before anything changed, so
   * a page speaking v0.9 with the basic catalog loads that catalog's validator alone. Once all
   * are loaded, the check is one comparison.
   * @throws ModuleNotLoadedError with their load under way
   */
  #prepare(version: ProtocolVersion): void {
    const loads: Promise<void>[] = [];
    const own = version.prepareValidators?.();
    if (own) loads.push(own);
    if (this.#validate && !version.native) {
      // Readers of these versions keep state: a failure must be worded without waiting.
      if (!familyDocumentsModule.loaded) loads.push(familyDocumentsModule.load());
      const family = catalogVersionFamily(version.family);
      for (const catalog of this.catalogs.values()) {
        const validator = catalog.validator;
        if (validator?.loaded !== false || !validator.load) continue;
        if (catalogVersionFamily(catalog.protocolVersion) === family) loads.push(validator.load());
      }
    }
    if (loads.length === 0) {
      this.#preparedVersion = version;
      return;
    }
    const ready = Promise.all(loads).then(() => undefined);
    ready.catch(() => {});
    throw new ModuleNotLoadedError(`validators of ${version.name}`, ready);
  }

  /** A missing or unknown `version`: the spec error, naming the message's surface if it can. */
  #versionFailure(message: Record<string, unknown>): MessageFailure {
    let surfaceId: string | undefined;
    for (const key of Object.keys(message)) surfaceId ??= readSurfaceId(message[key]);
    const versions = this.#versions;
    const versionless = versions.versionlessNames;
    const note =
      versionless.length === 0
        ? ''
        : `, or be a ${versionless.join(' or ')} message, which carries none`;
    return validationFailure(
      surfaceId,
      '/version',
      message.version === undefined
        ? `Missing "version": a message must carry "version" (${versions.envelopeNames.map((name) => `"${name}"`).join(', ')})${note}.`
        : unsupportedVersionMessage(message.version, versions.envelopeNames, versionless),
    );
  }

  /** Shape checks that do not depend on a catalog; enough to route the message safely. */
  #checkEnvelope(message: Record<string, unknown>, version: ProtocolVersion): ServerMessageKind {
    // One pass over the keys: a well-formed message has exactly `version` and its kind.
    let extra: string | undefined;
    const kinds: ServerMessageKind[] = [];
    for (const key of Object.keys(message)) {
      if (isServerMessageKind(key)) kinds.push(key);
      else if (key !== 'version') extra ??= key;
    }
    if (kinds.length > 1)
      kinds.sort((a, b) => SERVER_MESSAGE_KINDS.indexOf(a) - SERVER_MESSAGE_KINDS.indexOf(b));
    if (extra !== undefined) this.#internal.checkForeignKey(extra, version);
    if (kinds.length !== 1) {
      throw validationFailure(
        undefined,
        '',
        kinds.length === 0
          ? `A server message needs exactly one of ${SERVER_MESSAGE_KINDS.join(', ')}.`
          : `${V0_9_MULTIPLE_KINDS_MESSAGE}: ${kinds.join(' and ')}; a server message carries exactly one.`,
      );
    }
    const kind = kinds[0]!;
    const body = message[kind];
    if (!isRecord(body))
      throw validationFailure(undefined, `/${kind}`, `"${kind}" must be an object.`);
    if (typeof body.surfaceId !== 'string') {
      throw validationFailure(
        undefined,
        `/${kind}/surfaceId`,
        requiredStringMessage(`${kind}.surfaceId`, body.surfaceId),
      );
    }
    if (extra !== undefined) {
      throw validationFailure(
        body.surfaceId,
        `/${extra}`,
        `Unexpected property "${extra}" beside "${kind}".`,
      );
    }
    return kind;
  }

  #createSurface(message: unknown, body: CreateSurface, version: ProtocolVersion): void {
    const { surfaceId } = body;
    if (typeof body.catalogId !== 'string') {
      throw validationFailure(
        surfaceId,
        '/createSurface/catalogId',
        requiredStringMessage('createSurface.catalogId', body.catalogId),
      );
    }
    const catalog = this.catalogs.get(
      Object.hasOwn(version.catalogAliases, body.catalogId)
        ? version.catalogAliases[body.catalogId]!
        : body.catalogId,
    );
    if (!catalog) {
      throw genericFailure(
        'CATALOG_NOT_FOUND',
        surfaceId,
        `Catalog not found: ${body.catalogId}. This client supports: ${this.catalogs.catalogIds.join(', ') || 'none'}.`,
      );
    }
    this.#internal.checkCatalogFamily(catalog, version, surfaceId);
    this.#validateWith(catalog, message, surfaceId, version);
    if (this.#surfaces.has(surfaceId)) {
      throw genericFailure('SURFACE_EXISTS', surfaceId, surfaceExistsMessage(surfaceId));
    }
    if (this.#surfaces.size >= this.#limits.maxSurfaces) {
      throw genericFailure(
        'LIMIT_EXCEEDED',
        surfaceId,
        `At most ${this.#limits.maxSurfaces} surfaces may exist at once.`,
      );
    }
    const surface = new Surface({
      surfaceId,
      catalog,
      theme: body.theme as Theme | undefined,
      protocolVersion: version,
      sendDataModel: body.sendDataModel === true,
      notifier: this.notifier,
      limits: { maxDepth: this.#limits.maxDepth, maxArrayIndex: this.#limits.maxArrayIndex },
    });
    this.#surfaces.set(surfaceId, surface);
    this.#setSurfaceList([...this.#surfaceList, surface]);
  }

  #updateComponents(body: UpdateComponents, version: ProtocolVersion): void {
    const surface = this.#requireSurface(body.surfaceId, 'updateComponents', version);
    const { surfaceId } = body;
    if (!Array.isArray(body.components) || body.components.length === 0) {
      throw validationFailure(
        surfaceId,
        '/updateComponents/components',
        '"updateComponents.components" must be a non-empty array of components.',
      );
    }
    const components = this.#validate
      ? this.#validateComponents(surface, body)
      : this.#checkComponentShapes(body);
    if (
      surface.components.size + countNew(surface, components) >
      this.#limits.maxComponentsPerSurface
    ) {
      throw genericFailure(
        'LIMIT_EXCEEDED',
        surfaceId,
        `Surface "${surfaceId}" would hold more than ${this.#limits.maxComponentsPerSurface} components.`,
      );
    }
    if (this.#strict) rejectTopologyProblems(surface, components, '/updateComponents/components');
    for (const component of components) surface.components.upsert(component);
  }

  /**
   * Full-schema validation with graceful degradation (ARCHITECTURE §2, `checkComponents`): unknown
   * component types kept, unknown properties dropped, calls of unknown functions kept, each
   * reported once per surface; any other problem rejects the whole message.
   */
  #validateComponents(surface: Surface, body: UpdateComponents): ComponentInstance[] {
    if (!surface.catalog.validator) return this.#checkComponentShapes(body);
    // The envelope of updateComponents is checked here and each component against its own
    // schema, chosen by its `component` type: the same verdict as the full message schema, without
    // trying every branch of `anyComponent` for every component.
    const extra = Object.keys(body).find((key) => key !== 'surfaceId' && key !== 'components');
    if (extra !== undefined) {
      throw validationFailure(
        surface.surfaceId,
        `/updateComponents/${encodeSegment(extra)}`,
        `Unexpected property "${extra}" in updateComponents; it holds only "surfaceId" and "components".`,
      );
    }
    return checkComponents(body.components, {
      surface,
      catalogs: body.components.map(() => surface.catalog),
      path: '/updateComponents/components',
      report: (error) => this.#report(error),
    });
  }

  #checkComponentShapes(body: UpdateComponents): ComponentInstance[] {
    body.components.forEach((component, index) => {
      const path = `/updateComponents/components/${index}`;
      if (!isRecord(component))
        throw validationFailure(body.surfaceId, path, 'A component must be an object.');
      if (typeof component.id !== 'string')
        throw validationFailure(body.surfaceId, `${path}/id`, missingIdMessage(index));
      if (typeof component.component !== 'string') {
        throw validationFailure(
          body.surfaceId,
          `${path}/component`,
          missingTypeMessage(component.id),
        );
      }
    });
    return body.components;
  }

  #updateDataModel(message: unknown, body: UpdateDataModel, version: ProtocolVersion): void {
    const surface = this.#requireSurface(body.surfaceId, 'updateDataModel', version);
    this.#validateWith(surface.catalog, message, body.surfaceId, version);
    const path = body.path ?? '/';
    if (typeof path !== 'string')
      throw validationFailure(
        body.surfaceId,
        '/updateDataModel/path',
        '"updateDataModel.path" must be a JSON Pointer string.',
      );
    try {
      surface.dataModel.setAt(parsePointer(path), 'value' in body ? body.value : undefined);
    } catch (error) {
      const failure = toA2uiError(error, 'DATA_ERROR');
      throw genericFailure(failure.code, body.surfaceId, failure.message, {
        path: failure.path ?? path,
      });
    }
  }

  #deleteSurface(message: unknown, surfaceId: string, version: ProtocolVersion): void {
    const surface = this.#surfaces.get(surfaceId);
    // Deleting an unknown surface is a silent no-op, as in the reference processor (digest §2.4).
    if (!surface) return;
    this.#internal.checkSurfaceFamily(surface, version, 'deleteSurface');
    this.#validateWith(surface.catalog, message, surfaceId, version);
    surface.dispose();
    this.#surfaces.delete(surfaceId);
    this.#setSurfaceList(this.#surfaceList.filter((entry) => entry !== surface));
  }

  #requireSurface(surfaceId: string, kind: ServerMessageKind, version: ProtocolVersion): Surface {
    return this.#internal.requireSurface(surfaceId, kind, version);
  }

  #validateWith(
    catalog: Catalog,
    message: unknown,
    surfaceId: string,
    version: ProtocolVersion,
  ): void {
    if (!this.#validate || !catalog.validator) return;
    // v0.9.1 is validated with v0.9's schemas, whose `version` is the constant "v0.9".
    const checked = version.name === 'v0.9' ? message : { ...(message as object), version: 'v0.9' };
    const issues = catalog.validator.validateServerMessage(checked, JSON_CHECKED);
    const first = issues[0];
    if (!first) return;
    // The theme is checked against the catalog's theme schema: say so in the spec's words.
    const text = first.path.startsWith('/createSurface/theme')
      ? themeValidationMessage(surfaceId, first.message)
      : first.message;
    throw validationFailure(surfaceId, first.path, text);
  }

  #setSurfaceList(list: readonly Surface[]): void {
    this.#surfaceList = list;
    this.notifier.notifyAll(this.#listeners);
  }
}

/** How many distinct ids of `components` the surface does not hold yet. */
function countNew(surface: Surface, components: readonly ComponentInstance[]): number {
  let added: Set<string> | undefined;
  for (const { id } of components) {
    if (surface.components.has(id)) continue;
    added ??= new Set();
    added.add(id);
  }
  return added?.size ?? 0;
}

const isServerMessageKind = (key: string): key is ServerMessageKind =>
  key === 'createSurface' ||
  key === 'updateComponents' ||
  key === 'updateDataModel' ||
  key === 'deleteSurface';

function readSurfaceId(body: unknown): string | undefined {
  return isRecord(body) && typeof body.surfaceId === 'string' ? body.surfaceId : undefined;
}

/** `surfaceId` as a field, left out when no surface is concerned (input that is not JSON, …). */
const surfaceField = (surfaceId: string | undefined): { surfaceId?: string } =>
  surfaceId === undefined ? {} : { surfaceId };

function validationFailure(
  surfaceId: string | undefined,
  path: string,
  message: string,
): MessageFailure {
  return new MessageFailure({ code: VALIDATION_FAILED, ...surfaceField(surfaceId), path, message });
}

function genericFailure(
  code: string,
  surfaceId: string,
  message: string,
  extra: Record<string, unknown> = {},
): MessageFailure {
  return new MessageFailure({ code, surfaceId, message, ...extra });
}

/** An error about the input as a whole (not JSON, too large, too deep): no surface is known. */
function issueToError(issue: ValidationIssue): ClientError {
  const code =
    issue.keyword === 'INVALID_JSON' || issue.keyword === 'MESSAGE_TOO_LARGE'
      ? issue.keyword
      : VALIDATION_FAILED;
  return code === VALIDATION_FAILED
    ? { code, path: issue.path, message: issue.message }
    : { code, message: issue.message };
}

function toClientError(error: unknown, message: unknown): ClientError {
  if (error instanceof MessageFailure) return error.clientError;
  const failure = toA2uiError(error);
  let surfaceId: string | undefined = failure.surfaceId;
  if (surfaceId === undefined) {
    try {
      const kind = getServerMessageKind(message);
      if (kind) surfaceId = readSurfaceId((message as Record<string, unknown>)[kind]);
    } catch {
      // A hostile in-process object (throwing getter or Proxy): report without a surface.
    }
  }
  if (failure.code === VALIDATION_FAILED) {
    return {
      code: VALIDATION_FAILED,
      ...surfaceField(surfaceId),
      path: failure.path ?? '',
      message: failure.message,
    };
  }
  return { code: failure.code, ...surfaceField(surfaceId), message: failure.message };
}
