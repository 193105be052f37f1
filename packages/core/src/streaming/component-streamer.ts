/**
 * Sends components as soon as they can be rendered: a component is sent once it is reachable
 * from its surface's root, with placeholders for children still on the wire, and sent again when
 * it (or a placeholder it shows) changes. Components not reachable from the root are held back.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { withPlaceholders } from './component-placeholders.js';
import type { ReferenceFields } from './component-references.js';
import { reachableComponentIds } from './component-topology.js';
import { stableStringify } from './json-equals.js';
import type { StreamDialect } from './stream-dialect.js';
import type { JsonObject } from './stream-types.js';

/** Where the streamer is in the stream when asked to send. */
export interface ComponentSendRequest {
  readonly surfaceId: string;
  readonly rootId: string;
  /** The unfinished JSON of the block (to tell an opened child list from an empty one). */
  readonly pendingJson: string;
  /** A whole component message just completed: its root must be among the components. */
  readonly requireRoot: boolean;
  /** The message type that the components belong to, for error texts. */
  readonly messageType: string;
}

/** The components received so far and what was sent of them, per surface. */
export class ComponentStreamer {
  /** Every component received, by id (the latest version of each). */
  readonly received = new Map<string, JsonObject>();
  readonly #sentIds = new Map<string, Set<string>>();
  /** Serialised form of each sent component, by surface then id. */
  readonly #sentContent = new Map<string, Map<string, string>>();

  constructor(
    readonly dialect: StreamDialect,
    readonly fields: ReferenceFields,
  ) {}

  /** Forgets what was sent on a deleted surface. */
  forgetSurface(surfaceId: string): void {
    this.#sentIds.delete(surfaceId);
    this.#sentContent.delete(surfaceId);
  }

  /**
   * The components to send for a surface now (reachable ones, sorted by id, then placeholders),
   * or undefined when nothing new is reachable and nothing sent has changed. Marks them as sent.
   *
   * @throws A2uiError `VALIDATION_FAILED` on a reference cycle or self-reference, and when
   *   `requireRoot` is set but the root has not arrived.
   */
  take(request: ComponentSendRequest): JsonObject[] | undefined {
    const { surfaceId, rootId } = request;
    if (request.requireRoot && !this.received.has(rootId)) {
      throw new A2uiError(
        'VALIDATION_FAILED',
        `No root component (id='${rootId}') found in ${request.messageType}`,
        { surfaceId, data: { reason: 'missing-root', rootId } },
      );
    }
    const reachable = reachableComponentIds(rootId, this.received.values(), this.fields);
    const available = [...reachable].filter((id) => this.received.has(id)).sort();
    const placeholders: JsonObject[] = [];
    const context = {
      dialect: this.dialect,
      received: this.received,
      pendingJson: request.pendingJson,
      placeholders,
    };
    const components = available.map((id) =>
      withPlaceholders(this.received.get(id) as JsonObject, context),
    );
    components.push(...placeholders);
    const sentIds = this.#sentIds.get(surfaceId) ?? new Set<string>();
    const sentContent = this.#sentContent.get(surfaceId) ?? new Map<string, string>();
    const serialised = components.map((component) => stableStringify(component));
    const changed =
      available.some((id) => !sentIds.has(id)) ||
      components.some(
        (component, index) => sentContent.get(String(component.id)) !== serialised[index],
      );
    if (!changed) return undefined;
    for (const id of available) sentIds.add(id);
    components.forEach((component, index) => {
      sentContent.set(String(component.id), serialised[index] as string);
    });
    this.#sentIds.set(surfaceId, sentIds);
    this.#sentContent.set(surfaceId, sentContent);
    return components;
  }
}
