/**
 * What the client shows of the model's surfaces, mirrored on the agent side: every message the
 * model writes is validated by core (the catalog's schema, then a dry run through a
 * `MessageProcessor` holding exactly what was sent) before it may leave, so the client's surfaces
 * are valid after every message (digest §2, §5, §7).
 */
import {
  A2UI_VERSION,
  type Catalog,
  type CatalogValidator,
  type ClientError,
  type ComponentInstance,
  createUrlPolicy,
  getServerMessageKind,
  getSurfaceId,
  isRecord,
  MessageProcessor,
  type ProcessorLimits,
  ROOT_COMPONENT_ID,
  type ServerMessage,
  type Surface,
  type UrlPolicy,
  utf8ByteLength,
  VALIDATION_FAILED,
} from '@a2ui-ts/core';
import { type ReferenceIndex, referencedIds } from '../catalog/component-references.js';
import { findRefusedUrl } from './find-refused-url.js';

/** One problem with what the model wrote, reported back to it. */
export interface RenderIssue {
  /** A spec error code: `VALIDATION_FAILED`, `SURFACE_NOT_FOUND`, `LIMIT_EXCEEDED`, … */
  readonly code: string;
  /** JSON Pointer into the tool call's input, e.g. `/messages/2/updateComponents/components/0/text`. */
  readonly path: string;
  readonly message: string;
  readonly surfaceId?: string;
}

/** What {@link SurfaceMirror} accepted of a message: ready to send, plus what it refused. */
export interface Accepted {
  readonly messages: ServerMessage[];
  readonly issues: RenderIssue[];
}

/** A component as it appeared in the model's call, with its pointer there. */
export interface ComponentPiece {
  readonly component: unknown;
  /** e.g. `/messages/2/updateComponents/components/3` */
  readonly at: string;
}

/** Options of {@link SurfaceMirror}. */
export interface SurfaceMirrorOptions {
  /** The catalog the model renders with; its surfaces must use it. */
  catalog: Catalog;
  /** Strict validation of that catalog (unknown types and properties are errors here). */
  validator: CatalogValidator;
  /** Where components of the catalog reference other components. */
  references: ReferenceIndex;
  /** Surfaces the model may not touch (the agent's own). */
  reservedSurfaceIds: ReadonlySet<string>;
  /** Largest message, in UTF-8 bytes (the transport's frame limit). */
  maxMessageBytes: number;
  /** Caps of the mirror, like the client's. @default core's `DEFAULT_PROCESSOR_LIMITS` */
  limits?: ProcessorLimits;
  /**
   * The URLs the model may write (`Image` and other media `url`s, `openUrl`, a theme's
   * `iconUrl`); a component or message with another is refused and the model told.
   * @default core's `createUrlPolicy()` (`http:` and `https:` only)
   */
  urlPolicy?: UrlPolicy;
}

const MAX_DESCRIBED_CHARS = 4000;

/**
 * The model's surfaces as the client has them.
 *
 * @example
 * ```ts
 * const mirror = new SurfaceMirror({ catalog: basicCatalog, validator: basicCatalog.validator!,
 *   references: createReferenceIndex(readCatalogDocument(basicCatalog)),
 *   reservedSurfaceIds: new Set(['llm-agent']), maxMessageBytes: 1_048_576 });
 * const { messages, issues } = mirror.accept(message, '/messages/0');
 * connection.send(messages); // issues go back to the model
 * ```
 */
export class SurfaceMirror {
  readonly #options: SurfaceMirrorOptions;
  readonly #processor: MessageProcessor;
  readonly #urlPolicy: UrlPolicy;

  constructor(options: SurfaceMirrorOptions) {
    this.#options = options;
    this.#urlPolicy = options.urlPolicy ?? createUrlPolicy();
    // Validation happens here, strictly, before the dry run; the mirror only tracks state.
    this.#processor = new MessageProcessor({
      catalogs: [options.catalog],
      validate: false,
      limits: options.limits,
    });
  }

  /** Ids of the model's live surfaces, in creation order. */
  get surfaceIds(): string[] {
    return this.#processor.getSurfaces().map((surface) => surface.surfaceId);
  }

  has(surfaceId: string): boolean {
    return this.#processor.getSurface(surfaceId) !== undefined;
  }

  /**
   * Checks and applies one whole message found at `at` in the model's call. A `createSurface`
   * for a surface the model already has replaces it (`deleteSurface` first). An
   * `updateComponents` is judged component by component: the valid ones apply.
   */
  accept(message: unknown, at: string): Accepted {
    const kind = getServerMessageKind(message);
    if (kind === 'updateComponents') {
      const envelope = this.readComponentsEnvelope(message, at);
      if ('issues' in envelope) return { messages: [], issues: envelope.issues };
      return this.acceptComponents(
        envelope.surfaceId,
        envelope.components.map((component, index) => ({
          component,
          at: `${at}/updateComponents/components/${index}`,
        })),
        at,
      );
    }
    const schemaIssues = this.#options.validator.validateServerMessage(message);
    if (schemaIssues.length > 0) {
      return {
        messages: [],
        issues: schemaIssues.map((issue) =>
          failure(surfaceOf(message), `${at}${issue.path}`, issue.message),
        ),
      };
    }
    const refused = this.#refusedUrl(message, at, surfaceOf(message));
    if (refused) return { messages: [], issues: [refused] };
    const valid = message as ServerMessage;
    const surfaceId = surfaceOf(valid);
    const reserved = this.#reserved(surfaceId, `${at}/${kind}/surfaceId`);
    if (reserved) return { messages: [], issues: [reserved] };
    if ('createSurface' in valid) {
      const { catalogId } = valid.createSurface;
      if (catalogId !== this.#options.catalog.catalogId) {
        return {
          messages: [],
          issues: [
            failure(
              surfaceId,
              `${at}/createSurface/catalogId`,
              `Use "catalogId": "${this.#options.catalog.catalogId}"; ${JSON.stringify(catalogId)} is not the catalog you render with.`,
            ),
          ],
        };
      }
      if (this.has(surfaceId)) {
        const replaced: ServerMessage = { version: A2UI_VERSION, deleteSurface: { surfaceId } };
        this.#processor.process(replaced);
        return this.#apply([replaced, valid], at);
      }
    }
    return this.#apply([valid], at);
  }

  /**
   * Checks and applies components of `surfaceId` (pieces of one `updateComponents` message at
   * `messageAt`): each valid one applies, each invalid one is reported at its own pointer.
   */
  acceptComponents(
    surfaceId: string,
    pieces: readonly ComponentPiece[],
    messageAt: string,
  ): Accepted {
    const reserved = this.#reserved(surfaceId, `${messageAt}/updateComponents/surfaceId`);
    if (reserved) return { messages: [], issues: [reserved] };
    if (!this.has(surfaceId)) {
      return {
        messages: [],
        issues: [
          {
            code: 'SURFACE_NOT_FOUND',
            surfaceId,
            path: `${messageAt}/updateComponents/surfaceId`,
            message: `Surface "${surfaceId}" does not exist; send createSurface first (components of it were not applied).`,
          },
        ],
      };
    }
    const issues: RenderIssue[] = [];
    const valid: ComponentInstance[] = [];
    for (const piece of pieces) {
      const check = this.#options.validator.checkComponent(piece.component);
      const refused =
        check.status === 'valid'
          ? this.#refusedUrl(piece.component, piece.at, surfaceId)
          : undefined;
      if (refused) issues.push(refused);
      else if (check.status === 'valid') valid.push(piece.component as ComponentInstance);
      else
        for (const issue of check.issues)
          issues.push(failure(surfaceId, `${piece.at}${issue.path}`, issue.message));
    }
    if (valid.length === 0) return { messages: [], issues };
    const applied = this.#apply(
      [{ version: A2UI_VERSION, updateComponents: { surfaceId, components: valid } }],
      messageAt,
    );
    return { messages: applied.messages, issues: [...issues, ...applied.issues] };
  }

  /** The issue of a URL in `value` (at `at`) that the URL policy refuses, if any. */
  #refusedUrl(value: unknown, at: string, surfaceId: string): RenderIssue | undefined {
    const refused = findRefusedUrl(value, this.#urlPolicy);
    if (!refused) return undefined;
    const shown = refused.url.length > 80 ? `${refused.url.slice(0, 80)}…` : refused.url;
    return failure(
      surfaceId,
      `${at}${refused.path}`,
      `The URL ${JSON.stringify(shown)} is refused by the URL policy (http: and https: URLs only); this was not applied. Use an https: URL.`,
    );
  }

  /**
   * What keeps `surfaceIds` from rendering fully: no `root` (nothing is visible), a reference to
   * a component that does not exist (a placeholder forever), a cycle. `locate` gives a
   * component's pointer in the current call, when it came from it.
   */
  completeness(
    surfaceIds: Iterable<string>,
    locate: (surfaceId: string, componentId: string) => string | undefined,
  ): RenderIssue[] {
    const issues: RenderIssue[] = [];
    for (const surfaceId of new Set(surfaceIds)) {
      const surface = this.#processor.getSurface(surfaceId);
      if (!surface) continue;
      if (!surface.components.has(ROOT_COMPONENT_ID)) {
        issues.push(
          failure(
            surfaceId,
            '',
            `Surface "${surfaceId}" has no component with id "${ROOT_COMPONENT_ID}", so nothing of it is visible; send one.`,
          ),
        );
        continue;
      }
      for (const record of surface.components.values()) {
        const slots = this.#options.references.get(record.type) ?? [];
        for (const id of referencedIds(record.properties, slots)) {
          if (surface.components.has(id)) continue;
          issues.push(
            failure(
              surfaceId,
              locate(surfaceId, record.id) ?? '',
              `Component "${record.id}" references "${id}", which surface "${surfaceId}" does not have; send a component with id "${id}" or change the reference.`,
            ),
          );
        }
      }
      const cycle = this.#findCycle(surface);
      if (cycle) {
        issues.push(
          failure(
            surfaceId,
            locate(surfaceId, cycle[0]!) ?? '',
            `Components of surface "${surfaceId}" reference each other in a cycle (${cycle.join(' → ')}); a component cannot contain itself.`,
          ),
        );
      }
    }
    return issues;
  }

  /** The model's surfaces for the system prompt: ids, components and data, clipped. */
  describe(): string {
    const surfaces = this.#processor.getSurfaces();
    if (surfaces.length === 0) return 'No surface of yours is on screen.';
    const lines = surfaces.map((surface) => {
      const components = [...surface.components.values()]
        .map((record) => `${record.id} (${record.type})`)
        .join(', ');
      const data = JSON.stringify(surface.dataModel.getSnapshot());
      return `- "${surface.surfaceId}": components ${components || 'none'}; data model ${data}`;
    });
    const text = `Your surfaces on screen now:\n${lines.join('\n')}`;
    return text.length <= MAX_DESCRIBED_CHARS
      ? text
      : `${text.slice(0, MAX_DESCRIBED_CHARS - 1)}… (clipped)`;
  }

  /** Forgets every surface (the client was reset). */
  reset(): void {
    this.#processor.reset();
  }

  /**
   * Checks the envelope of an `updateComponents` message at `at` (version, keys, surface id, a
   * non-empty component list) without judging the components.
   */
  readComponentsEnvelope(
    message: unknown,
    at: string,
  ): { surfaceId: string; components: unknown[] } | { issues: RenderIssue[] } {
    const problem = (path: string, text: string, surfaceId = '') => ({
      issues: [failure(surfaceId, `${at}${path}`, text)],
    });
    if (!isRecord(message)) return problem('', 'A message must be a JSON object.');
    if (message.version !== A2UI_VERSION)
      return problem('/version', `Every message needs "version": "${A2UI_VERSION}".`);
    const extra = Object.keys(message).find(
      (key) => key !== 'version' && key !== 'updateComponents',
    );
    if (extra !== undefined)
      return problem(
        `/${extra}`,
        `A message carries "version" and exactly one kind; remove "${extra}".`,
      );
    const body = message.updateComponents;
    if (!isRecord(body))
      return problem('/updateComponents', '"updateComponents" must be an object.');
    if (typeof body.surfaceId !== 'string')
      return problem(
        '/updateComponents/surfaceId',
        '"updateComponents.surfaceId" must be a string.',
      );
    const bodyExtra = Object.keys(body).find((key) => key !== 'surfaceId' && key !== 'components');
    if (bodyExtra !== undefined) {
      return problem(
        `/updateComponents/${bodyExtra}`,
        `"updateComponents" holds only "surfaceId" and "components"; remove "${bodyExtra}".`,
        body.surfaceId,
      );
    }
    if (!Array.isArray(body.components) || body.components.length === 0) {
      return problem(
        '/updateComponents/components',
        '"updateComponents.components" must be a non-empty array.',
        body.surfaceId,
      );
    }
    return { surfaceId: body.surfaceId, components: body.components };
  }

  #reserved(surfaceId: string, path: string): RenderIssue | undefined {
    if (!this.#options.reservedSurfaceIds.has(surfaceId)) return undefined;
    return failure(
      surfaceId,
      path,
      `Surface "${surfaceId}" belongs to the application; use another surfaceId.`,
    );
  }

  /** Size-checks, then dry-runs `messages` through the mirror; what passes may be sent. */
  #apply(messages: ServerMessage[], at: string): Accepted {
    const accepted: ServerMessage[] = [];
    const issues: RenderIssue[] = [];
    for (const message of messages) {
      const surfaceId = surfaceOf(message);
      const bytes = utf8ByteLength(JSON.stringify(message), this.#options.maxMessageBytes);
      if (bytes > this.#options.maxMessageBytes) {
        issues.push({
          code: 'MESSAGE_TOO_LARGE',
          surfaceId,
          path: at,
          message: `This message is larger than ${this.#options.maxMessageBytes} bytes; split it into smaller updates.`,
        });
        continue;
      }
      const { errors } = this.#processor.process(message);
      if (errors.length === 0) accepted.push(message);
      else issues.push(...errors.map((error) => fromClientError(error, at)));
    }
    return { messages: accepted, issues };
  }

  #findCycle(surface: Surface): string[] | undefined {
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (id: string): string[] | undefined => {
      const mark = state.get(id);
      if (mark === 'done') return undefined;
      if (mark === 'open') return [...path.slice(path.indexOf(id)), id];
      const record = surface.components.get(id);
      if (!record) return undefined;
      state.set(id, 'open');
      path.push(id);
      for (const child of referencedIds(
        record.properties,
        this.#options.references.get(record.type) ?? [],
      )) {
        const cycle = visit(child);
        if (cycle) return cycle;
      }
      path.pop();
      state.set(id, 'done');
      return undefined;
    };
    return visit(ROOT_COMPONENT_ID);
  }
}

function surfaceOf(message: unknown): string {
  return getSurfaceId(message) ?? '';
}

function failure(surfaceId: string, path: string, message: string): RenderIssue {
  return { code: VALIDATION_FAILED, surfaceId, path, message };
}

function fromClientError(error: ClientError, at: string): RenderIssue {
  const detail = error as { path?: unknown };
  if (error.code === VALIDATION_FAILED && typeof detail.path === 'string')
    return {
      code: error.code,
      surfaceId: error.surfaceId,
      path: `${at}${detail.path}`,
      message: error.message,
    };
  // Other codes carry a data-model pointer (DATA_ERROR), not a pointer into the message.
  const where = typeof detail.path === 'string' ? ` (data path "${detail.path}")` : '';
  return {
    code: error.code,
    surfaceId: error.surfaceId,
    path: at,
    message: `${error.message}${where}`,
  };
}
