/**
 * Sends components as soon as they can be rendered: a component is sent once it is reachable
 * from its surface's root, with placeholders for children still on the wire, and sent again when
 * it (or a placeholder it shows) changes. Components not reachable from the root are held back.
 *
 * Every send holds the whole reachable tree (as the reference SDK's parser sends it), so each
 * component's renderable copy, its serialisation and its references are kept until the component
 * or a child it shows changes: a push then costs one pass of pointer work over the tree, and
 * copying and serialising only what changed, instead of all of it again.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import {
  listIsOpen,
  type PlaceholderInputs,
  placeholderInputsChanged,
  withPlaceholders,
} from './component-placeholders.js';
import { componentReferences, type ReferenceFields } from './component-references.js';
import { ReachableComponents } from './component-topology.js';
import { stableStringify } from './json-equals.js';
import type { StreamDialect } from './stream-dialect.js';
import type { StreamReadMeter } from './stream-read-meter.js';
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

/** What {@link ComponentStreamer.take} sends. */
export interface ComponentSend {
  /** The reachable components (sorted by id), then the placeholders they show. */
  readonly components: JsonObject[];
  /** Those of `components` that were not sent in this form before (what a validator must see). */
  readonly changed: JsonObject[];
  /** Records `components` as sent (call it once they went out). */
  commit(): void;
}

/** A received component made renderable, kept while what it was made from stays the same. */
interface RenderedComponent {
  readonly source: JsonObject;
  readonly copy: JsonObject;
  readonly placeholders: readonly JsonObject[];
  readonly inputs: PlaceholderInputs;
  readonly serialised: string;
}

/** Components by id that remember which ids were set since {@link takeChanged} was last called. */
export class ReceivedComponents extends Map<string, JsonObject> {
  #changed = new Set<string>();

  override set(id: string, component: JsonObject): this {
    this.#changed?.add(id);
    return super.set(id, component);
  }

  /** The ids set since the last call. */
  takeChanged(): Set<string> {
    const changed = this.#changed;
    this.#changed = new Set();
    return changed;
  }
}

/** The components received so far and what was sent of them, per surface. */
export class ComponentStreamer {
  /** Every component received, by id (the latest version of each). */
  readonly received = new ReceivedComponents();
  /** Serialised form of each sent component, by surface then id. */
  readonly #sentContent = new Map<string, Map<string, string>>();
  /** The renderable copy of each received component, by id. */
  readonly #rendered = new Map<string, RenderedComponent>();
  /** Serialised placeholders by id (a placeholder is a function of its id). */
  readonly #placeholderText = new Map<string, string>();
  readonly #references = new WeakMap<JsonObject, readonly { id: string; field: string }[]>();
  readonly #reachable: ReachableComponents;
  /** Ids of components whose copy shows a child, by the id of that child while it is missing. */
  readonly #dependents = new Map<string, Set<string>>();
  /** Components whose copy shows a child that has arrived since it was made. */
  readonly #stale = new Set<string>();

  /**
   * @param meter - Counts the characters of each component copy made (its serialisation), so
   *   that tests can prove a push renders what changed, not the whole tree.
   */
  constructor(
    readonly dialect: StreamDialect,
    readonly fields: ReferenceFields,
    readonly meter?: StreamReadMeter,
  ) {
    this.#reachable = new ReachableComponents(fields, (component) => this.#referencesOf(component));
  }

  /** Forgets what was sent on a deleted surface. */
  forgetSurface(surfaceId: string): void {
    this.#sentContent.delete(surfaceId);
  }

  /**
   * The components to send for a surface now (reachable ones, sorted by id, then placeholders),
   * or undefined when nothing new is reachable and nothing sent has changed. They count as sent
   * once the caller commits them.
   *
   * @throws A2uiError `VALIDATION_FAILED` on a reference cycle or self-reference, and when
   *   `requireRoot` is set but the root has not arrived.
   */
  take(request: ComponentSendRequest): ComponentSend | undefined {
    const { surfaceId, rootId } = request;
    if (request.requireRoot && !this.received.has(rootId)) {
      throw new A2uiError(
        'VALIDATION_FAILED',
        `No root component (id='${rootId}') found in ${request.messageType}`,
        { surfaceId, data: { reason: 'missing-root', rootId } },
      );
    }
    const arrived = this.received.takeChanged();
    for (const id of arrived) {
      for (const owner of this.#dependents.get(id) ?? []) this.#stale.add(owner);
      this.#dependents.delete(id);
    }
    this.#reachable.update(rootId, this.received, arrived);
    const available = this.#reachable.available;
    const openLists = new Map<string, boolean>();
    const isListOpen = (field: string): boolean => {
      let open = openLists.get(field);
      if (open === undefined) {
        open = listIsOpen(field, request.pendingJson);
        openLists.set(field, open);
      }
      return open;
    };
    const rendered = available.map((id) => this.#render(id, request.pendingJson, isListOpen));
    const placeholders = new Map<string, JsonObject>();
    for (const entry of rendered) {
      for (const placeholder of entry.placeholders) {
        const id = String(placeholder.id);
        if (!placeholders.has(id)) placeholders.set(id, placeholder);
      }
    }
    const components = rendered.map((entry) => entry.copy);
    const serialised = rendered.map((entry) => entry.serialised);
    for (const [id, placeholder] of placeholders) {
      components.push(placeholder);
      serialised.push(this.#placeholderSerialised(id, placeholder));
    }
    const sentContent = this.#sentContent.get(surfaceId) ?? new Map<string, string>();
    // A component never sent has no entry; an unchanged one is the same string object, whose
    // comparison costs nothing.
    const changedAt: number[] = [];
    components.forEach((component, index) => {
      if (sentContent.get(String(component.id)) !== serialised[index]) changedAt.push(index);
    });
    if (changedAt.length === 0) return undefined;
    const commit = () => {
      for (const index of changedAt)
        sentContent.set(String(components[index]?.id), serialised[index] as string);
      this.#sentContent.set(surfaceId, sentContent);
    };
    return { components, changed: changedAt.map((index) => components[index]!), commit };
  }

  #referencesOf(component: JsonObject): readonly { id: string; field: string }[] {
    let references = this.#references.get(component);
    if (references === undefined) {
      references = componentReferences(component, this.fields);
      this.#references.set(component, references);
    }
    return references;
  }

  /** The renderable copy of component `id`, made again only when what it shows changed. */
  #render(
    id: string,
    pendingJson: string,
    isListOpen: (field: string) => boolean,
  ): RenderedComponent {
    const source = this.received.get(id) as JsonObject;
    const cached = this.#rendered.get(id);
    if (
      cached?.source === source &&
      !this.#stale.has(id) &&
      (cached.inputs.listFields.length === 0 ||
        !placeholderInputsChanged(cached.inputs, this.received, isListOpen))
    ) {
      return cached;
    }
    this.#stale.delete(id);
    const inputs: PlaceholderInputs = {
      childIds: [],
      childReceived: [],
      listFields: [],
      listOpen: [],
    };
    const placeholders: JsonObject[] = [];
    const copy = withPlaceholders(source, {
      dialect: this.dialect,
      received: this.received,
      pendingJson,
      placeholders,
      inputs,
    });
    inputs.childIds.forEach((child, index) => {
      if (inputs.childReceived[index] || typeof child !== 'string') return;
      const owners = this.#dependents.get(child) ?? new Set<string>();
      owners.add(id);
      this.#dependents.set(child, owners);
    });
    const entry = { source, copy, placeholders, inputs, serialised: stableStringify(copy) };
    if (this.meter !== undefined) this.meter.charsRead += entry.serialised.length;
    this.#rendered.set(id, entry);
    return entry;
  }

  #placeholderSerialised(id: string, placeholder: JsonObject): string {
    let text = this.#placeholderText.get(id);
    if (text === undefined) {
      text = stableStringify(placeholder);
      this.#placeholderText.set(id, text);
    }
    return text;
  }
}
