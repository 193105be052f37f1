/**
 * The v0.8 reader: validates each v0.8 message against the v0.8 schema and upgrades it (by
 * {@link V08Upgrader}) into the engine's model. A chunk of its own behind `v08ReaderModule`, so a
 * page that never meets a v0.8 stream does not download it.
 */
import { A2uiError } from '../../errors/a2ui-error.js';
import { isRecord } from '../../protocol/guards.js';
import type { ServerMessage } from '../../protocol/messages.js';
import type {
  InternalCreateSurface,
  InternalMessage,
  ProtocolVersionReader,
} from '../protocol-version.js';
import { v09ToInternal } from '../v0-9.js';
import { readV08DataModelUpdate } from './read-data-model-update.js';
import { provenByV08Schema } from './translate-component.js';
import {
  getV08MessageKind,
  V08_STANDARD_CATALOG_ID,
  V08_VERSION,
  type V08BeginRendering,
  type V08ServerMessage,
  type V08SurfaceUpdate,
} from './v08-messages.js';
import { type V08ComponentsRead, V08Upgrader } from './v08-upgrader.js';
import { type V08Validator, v08GenericValidator, v08StandardValidator } from './v08-validator.js';

/** Options of {@link createV08Reader} and {@link createV08ProtocolVersion}. */
export interface V08ReaderOptions {
  /**
   * v0.8 validators of custom catalogs, by the v0.8 catalog id a `beginRendering` names (build
   * them with `compileV08CatalogValidator` from `@a2ui-ts/core/compile`). Components of other
   * catalogs are checked against the catalog-agnostic schema only.
   * @default {} (the standard catalog is always known)
   */
  catalogValidators?: Readonly<Record<string, V08Validator>>;
  /**
   * Most `surfaceUpdate`/`dataModelUpdate` messages waiting for their surface's `beginRendering`
   * (all surfaces together); one more is refused with `LIMIT_EXCEEDED`.
   * @default 1000
   */
  maxPendingMessages?: number;
}

/** Default of {@link V08ReaderOptions.maxPendingMessages}: far more than a real stream buffers. */
const V08_MAX_PENDING_MESSAGES = 1000;

/**
 * A reader of one processor's v0.8 stream: validates each message against the v0.8 schema (its
 * surface's catalog schema once `beginRendering` named it), then upgrades it. Components and data
 * sent before `beginRendering` are buffered until it arrives.
 */
export function createV08Reader(options: V08ReaderOptions = {}): ProtocolVersionReader {
  return new V08Reader(options);
}

/**
 * {@link createV08Reader}'s reader: a class rather than closures, since a processor makes one for
 * every v0.8 stream it reads.
 */
class V08Reader implements ProtocolVersionReader {
  readonly #upgrader: V08Upgrader;
  readonly #catalogValidators: Readonly<Record<string, V08Validator>> | undefined;

  constructor(options: V08ReaderOptions) {
    this.#upgrader = new V08Upgrader({
      renameRoot: false,
      keepCatalogIds: true,
      maxPendingMessages: options.maxPendingMessages ?? V08_MAX_PENDING_MESSAGES,
    });
    this.#catalogValidators = options.catalogValidators;
  }

  #validatorOf(surfaceId: string | undefined): V08Validator {
    const catalogId = surfaceId === undefined ? undefined : this.#upgrader.catalogIdOf(surfaceId);
    if (catalogId === undefined) return v08GenericValidator;
    const custom = this.#catalogValidators?.[catalogId];
    if (custom) return custom;
    return catalogId === V08_STANDARD_CATALOG_ID ? v08StandardValidator : v08GenericValidator;
  }

  read(message: Readonly<Record<string, unknown>>): readonly InternalMessage[] {
    const kind = getV08MessageKind(message);
    const body = kind ? message[kind] : undefined;
    const surfaceId =
      isRecord(body) && typeof body.surfaceId === 'string' ? body.surfaceId : undefined;
    if (kind === 'dataModelUpdate' && surfaceId !== undefined) {
      const write = this.#fastDataModelUpdate(message, surfaceId, body);
      if (write) return write;
    }
    const wire = 'version' in message ? withoutVersion(message) : message;
    const validator = this.#validatorOf(surfaceId);
    const [issue] = validator.validateServerMessage(wire);
    if (issue) {
      throw new A2uiError('VALIDATION_FAILED', issue.message, {
        path: issue.path,
        ...(surfaceId === undefined ? {} : { surfaceId }),
      });
    }
    const upgrader = this.#upgrader;
    // This surfaceUpdate's own components passed the standard-catalog schema just now (not
    // those buffered before beginRendering, which only the catalog-agnostic one checked).
    const standard = kind === 'surfaceUpdate' && validator === v08StandardValidator;
    // The frequent cases straight into the internal model; the rest (buffering, releasing what
    // was buffered, a repeated beginRendering) through the upgrader's v0.9 messages.
    if (kind === 'surfaceUpdate') {
      const read = upgrader.readSurfaceUpdate(body as V08SurfaceUpdate);
      if (read) return componentsToInternal(surfaceId!, read, standard);
    } else if (kind === 'beginRendering' && upgrader.beginNew(body as V08BeginRendering)) {
      return [beginToInternal(body as V08BeginRendering)];
    }
    const { messages } = upgrader.upgrade(wire as V08ServerMessage);
    const internals: InternalMessage[] = new Array(messages.length);
    for (let index = 0; index < messages.length; index++)
      internals[index] = upgradedToInternal(messages[index]!, standard, upgrader);
    return internals;
  }

  /**
   * A `dataModelUpdate` on a surface that has begun, alone in its message, checked and read in
   * one pass ({@link readV08DataModelUpdate}); `undefined` sends it down the validating path.
   * Every catalog's v0.8 schema has the same `dataModelUpdate`, so no validator is chosen.
   */
  #fastDataModelUpdate(
    message: Readonly<Record<string, unknown>>,
    surfaceId: string,
    body: unknown,
  ): readonly InternalMessage[] | undefined {
    if (this.#upgrader.catalogIdOf(surfaceId) === undefined) return undefined;
    for (const key in message) if (key !== 'dataModelUpdate' && key !== 'version') return undefined;
    const write = readV08DataModelUpdate(body);
    if (write === undefined) return undefined;
    return [
      {
        kind: 'updateDataModel',
        surfaceId: write.surfaceId,
        path: write.path,
        remove: false,
        value: write.value,
      },
    ];
  }

  reset(): void {
    this.#upgrader.reset();
  }
}

/** `message` without its `"version": "v0.8"` label (the v0.8 schema has no `version`). */
function withoutVersion(message: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { version: _label, ...wire } = message;
  return wire;
}

/**
 * A `surfaceUpdate` read by {@link V08Upgrader.readSurfaceUpdate}: its shorthand data writes,
 * then its components, as {@link upgradedToInternal} makes of the upgrader's v0.9 messages.
 */
function componentsToInternal(
  surfaceId: string,
  { components, initializations }: V08ComponentsRead,
  standard: boolean,
): InternalMessage[] {
  const internals: InternalMessage[] = new Array(initializations.length + 1);
  for (let index = 0; index < initializations.length; index++) {
    const { path, value } = initializations[index]!;
    internals[index] = { kind: 'updateDataModel', surfaceId, path, remove: false, value };
  }
  internals[initializations.length] = {
    kind: 'updateComponents',
    surfaceId,
    components,
    componentsPath: '/surfaceUpdate/components',
    validated: standard && components.every(provenByV08Schema),
  };
  return internals;
}

/**
 * The `createSurface` of a schema-valid `beginRendering` the upgrader has just begun
 * ({@link V08Upgrader.beginNew}), as {@link upgradedToInternal} makes it of the upgrader's.
 */
function beginToInternal(body: V08BeginRendering): InternalCreateSurface {
  return {
    kind: 'createSurface',
    surfaceId: body.surfaceId,
    // The reader's upgrader keeps v0.8 catalog ids (the processor registers v0.8's catalogs).
    catalogId: body.catalogId ?? V08_STANDARD_CATALOG_ID,
    catalogIdPath: '/beginRendering/catalogId',
    theme: body.styles,
    sendDataModel: false,
    components: undefined,
    componentsPath: '/createSurface/components',
    dataModel: undefined,
    metadata: undefined,
    rootId: body.root,
  };
}

/**
 * One message of the upgrader as the engine's internal message. The upgrader writes the two
 * frequent kinds from schema-valid v0.8 (string `surfaceId`, at least one component, each with a
 * string `id` and type), so they are taken as they are; the rare ones go through the v0.9 reader.
 */
export function upgradedToInternal(
  upgraded: ServerMessage,
  standard: boolean,
  upgrader: V08Upgrader,
): InternalMessage {
  if ('updateComponents' in upgraded) {
    const { surfaceId, components } = upgraded.updateComponents;
    return {
      kind: 'updateComponents',
      surfaceId,
      components,
      componentsPath: '/surfaceUpdate/components',
      validated: standard && components.every(provenByV08Schema),
    };
  }
  if ('updateDataModel' in upgraded) {
    const body = upgraded.updateDataModel;
    return {
      kind: 'updateDataModel',
      surfaceId: body.surfaceId,
      path: body.path ?? '/',
      remove: !('value' in body),
      value: body.value,
    };
  }
  const internal = v09ToInternal(upgraded as unknown as Record<string, unknown>, V08_VERSION);
  if (internal.kind !== 'createSurface') return internal;
  return {
    ...internal,
    catalogIdPath: '/beginRendering/catalogId',
    rootId: upgrader.rootIdOf(internal.surfaceId),
  };
}
