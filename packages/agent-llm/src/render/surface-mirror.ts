/**
 * What the client shows of the model's surfaces, mirrored on the agent side: every message the
 * model writes is validated by core (the catalog's schema, then a dry run through a
 * `MessageProcessor` holding exactly what was sent) before it may leave, so the client's surfaces
 * are valid after every message (digest §2, §5, §7). A valid component whose references do not
 * resolve yet is held back ({@link HeldComponents}): the client never shows a placeholder for a
 * piece that failed, and a self-correction adds the corrected pieces to what is on screen.
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
  jsonEquals,
  MessageProcessor,
  type ProcessorLimits,
  ROOT_COMPONENT_ID,
  type ServerMessage,
  type UrlPolicy,
  utf8ByteLength,
  VALIDATION_FAILED,
} from '@a2ui-ts/core';
import type { ReferenceIndex } from '../catalog/component-references.js';
import { findRefusedUrl } from './find-refused-url.js';
import { type ClientView, HeldComponents } from './held-components.js';

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
  readonly #held: HeldComponents;
  /** `createSurface` of each surface the current request created, to recognise a repeat. */
  readonly #createdThisRequest = new Map<string, unknown>();

  constructor(options: SurfaceMirrorOptions) {
    this.#options = options;
    this.#urlPolicy = options.urlPolicy ?? createUrlPolicy();
    this.#held = new HeldComponents(options.references, options.validator);
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
   * Starts a new user request: what was held back for the previous one is dropped, and the
   * surfaces it created count as the model's earlier work (created again, they are replaced).
   */
  beginRequest(): void {
    this.#held.clear();
    this.#createdThisRequest.clear();
  }

  /**
   * Checks and applies one whole message found at `at` in the model's call. A `createSurface`
   * for a surface the model already has replaces it (`deleteSurface` first) — unless the current
   * request created it the same way: a model correcting itself often writes everything again,
   * and the card on screen stays and takes the corrections. An `updateComponents` is judged
   * component by component: the valid ones apply (or are held until their references resolve).
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
      const earlier = this.#createdThisRequest.get(surfaceId);
      this.#createdThisRequest.set(surfaceId, valid.createSurface);
      if (this.has(surfaceId)) {
        if (earlier !== undefined && jsonEquals(earlier, valid.createSurface))
          return { messages: [], issues: [] };
        this.#held.clear(surfaceId);
        const replaced: ServerMessage = { version: A2UI_VERSION, deleteSurface: { surfaceId } };
        this.#processor.process(replaced);
        return this.#apply([replaced, valid], at);
      }
    }
    if ('deleteSurface' in valid) {
      this.#held.clear(surfaceId);
      this.#createdThisRequest.delete(surfaceId);
    }
    return this.#apply([valid], at);
  }

  /**
   * Checks and applies components of `surfaceId` (pieces of one `updateComponents` message at
   * `messageAt`): each invalid one is reported at its own pointer; each valid one applies once
   * its references resolve, meanwhile it is held (a child list may show its resolved entries).
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
    const release = this.#held.release(surfaceId, valid, this.#clientView(surfaceId));
    if (release.components.length === 0) {
      release.commit();
      return { messages: [], issues };
    }
    const applied = this.#apply(
      [
        {
          version: A2UI_VERSION,
          updateComponents: { surfaceId, components: release.components },
        },
      ],
      messageAt,
    );
    if (applied.messages.length > 0) release.commit();
    return { messages: applied.messages, issues: [...issues, ...applied.issues] };
  }

  /** The components of `surfaceId` on the client. */
  #clientView(surfaceId: string): ClientView {
    const components = this.#processor.getSurface(surfaceId)?.components;
    return (id) => components?.get(id)?.properties;
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
   * What keeps `surfaceIds` (and every surface with held components) from rendering fully: no
   * `root` (nothing is visible), components held back because they reference a component the
   * client does not have (missing or refused) or would close a cycle. `locate` gives a
   * component's pointer in the current call, when it came from it.
   */
  completeness(
    surfaceIds: Iterable<string>,
    locate: (surfaceId: string, componentId: string) => string | undefined,
  ): RenderIssue[] {
    const issues: RenderIssue[] = [];
    for (const surfaceId of new Set([...surfaceIds, ...this.#held.surfaceIds])) {
      const surface = this.#processor.getSurface(surfaceId);
      if (!surface) continue;
      if (
        !surface.components.has(ROOT_COMPONENT_ID) &&
        !this.#held.has(surfaceId, ROOT_COMPONENT_ID)
      ) {
        issues.push(
          failure(
            surfaceId,
            '',
            `Surface "${surfaceId}" has no component with id "${ROOT_COMPONENT_ID}", so nothing of it is visible; send one.`,
          ),
        );
      }
      for (const held of this.#held.reasons(surfaceId, this.#clientView(surfaceId))) {
        const at = locate(surfaceId, held.id) ?? '';
        const shown = surface.components.has(held.id)
          ? 'is shown without them (or as it was)'
          : 'is held back (not on screen)';
        if (held.missing.length > 0) {
          const ids = held.missing.map((id) => `"${id}"`).join(', ');
          issues.push(
            failure(
              surfaceId,
              at,
              `Component "${held.id}" references ${ids}, which surface "${surfaceId}" does not have (never sent, or refused: see the other errors), so it ${shown}; send a valid component with each of these ids or change the reference.`,
            ),
          );
        }
        if (held.cyclic.length > 0) {
          issues.push(
            failure(
              surfaceId,
              at,
              `Component "${held.id}" references ${held.cyclic.map((id) => `"${id}"`).join(', ')}, which contains "${held.id}" (a cycle), so it ${shown}; a component cannot contain itself.`,
            ),
          );
        }
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
      const held = this.#held
        .reasons(surface.surfaceId, this.#clientView(surface.surfaceId))
        .map((reason) => `${reason.id} (${reason.type})`)
        .join(', ');
      // Held components are the model's own words: it must know they are not on screen yet.
      const waiting = held ? `; held back until their references are valid: ${held}` : '';
      return `- "${surface.surfaceId}": components ${components || 'none'}${waiting}; data model ${data}`;
    });
    const text = `Your surfaces on screen now:\n${lines.join('\n')}`;
    return text.length <= MAX_DESCRIBED_CHARS
      ? text
      : `${text.slice(0, MAX_DESCRIBED_CHARS - 1)}… (clipped)`;
  }

  /** Forgets every surface (the client was reset). */
  reset(): void {
    this.#processor.reset();
    this.beginRequest();
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
