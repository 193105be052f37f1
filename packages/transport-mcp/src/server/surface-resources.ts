/**
 * The agent's current surfaces on one connection as MCP resources (the guide's "Static UI via
 * MCP Resources": `resources/list`, `resources/read` of `a2ui://<surfaceId>`): a mirror of what the
 * agent sent, fed from the connection's replay log as it grows, so a host can read a surface as
 * it stands without calling a tool, and hear (`notifications/resources/updated`) when it changes.
 */
import { A2UI_MIME_TYPE, DataModel } from '@a2ui-ts/core';
import type { ReplayEntry, ReplayLog } from '@a2ui-ts/core/host';
import { A2UI_URI_SCHEME } from '../protocol/mcp-a2ui.js';

/** One resource of `resources/list`. */
export interface SurfaceResource {
  uri: string;
  name: string;
  mimeType: string;
  description: string;
}

/** What the messages just applied changed. */
export interface SurfacesChange {
  /** Surfaces whose state changed. */
  readonly changed: ReadonlySet<string>;
  /** Surfaces were created or deleted. */
  readonly listChanged: boolean;
  /** The set of event names the components fire changed. */
  readonly eventsChanged: boolean;
}

/** Hears {@link SurfacesChange}s. */
export type SurfacesChangeListener = (change: SurfacesChange) => void;

/** Where an event fires: the first component (in surface and component order) that names it. */
export interface SurfaceEvent {
  readonly surfaceId: string;
  readonly sourceComponentId: string;
  /** The keys of its `context` (the arguments of its MCP Apps tool). */
  readonly contextKeys: readonly string[];
}

/** How deep {@link SurfaceResources.events} looks into a component for `{event: {name}}`. */
const MAX_EVENT_DEPTH = 8;

type Envelope = Record<string, unknown> & { version?: unknown };

/** A surface as the agent built it: no catalog is needed to keep it, nothing is rendered. */
interface MirroredSurface {
  /** Its `createSurface` as the agent sent it. */
  readonly created: Envelope;
  /** Components by id, each as last sent (`updateComponents` replaces by id). */
  readonly components: Map<string, Record<string, unknown>>;
  readonly data: DataModel;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The surface a server message is about, if any (`createSurface`, `updateComponents`…). */
const surfaceOf = (message: Envelope): { kind: string; surfaceId: string } | undefined => {
  for (const [kind, body] of Object.entries(message)) {
    if (kind === 'version' || !isRecord(body)) continue;
    if (typeof body.surfaceId === 'string') return { kind, surfaceId: body.surfaceId };
  }
  return undefined;
};

/** The URI of a surface's resource. */
export const surfaceUri = (surfaceId: string): string =>
  `${A2UI_URI_SCHEME}${encodeURIComponent(surfaceId)}`;

/**
 * The current surfaces of a connection. Reading a surface answers the messages that build it
 * as it stands, in the version the agent created it with: its `createSurface` as sent, one
 * `updateComponents` with every component, one `updateDataModel` of the whole model at `/`.
 */
export class SurfaceResources {
  // The host validated every message before it reached the log: this only keeps the state.
  readonly #surfaces = new Map<string, MirroredSurface>();
  readonly #log: ReplayLog;
  #listener: SurfacesChangeListener | undefined;
  #appliedSeq = 0;
  #eventNames = '';
  #unsubscribe: (() => void) | undefined;
  /** Appends that arrive while the backlog is read, applied after it. */
  #pending: ReplayEntry[] | undefined = [];

  /** @param log - the connection's replay log (read from the start, then followed) */
  constructor(log: ReplayLog) {
    this.#log = log;
  }

  /** Who hears of changes from now on (the MCP session, once it exists). */
  onChange(listener: SurfacesChangeListener): void {
    this.#listener = listener;
  }

  /** Reads what the log holds, then follows it. */
  async start(): Promise<void> {
    this.#unsubscribe = this.#log.subscribe({
      onAppend: (entries) => {
        if (this.#pending) this.#pending.push(...entries);
        else this.#apply(entries);
      },
      onEnd: () => this.close(),
    });
    const backlog = (await this.#log.read(0)) ?? [];
    const pending = this.#pending ?? [];
    this.#pending = undefined;
    this.#apply([...backlog, ...pending]);
  }

  /** `resources/list`: one resource per live surface, in creation order. */
  list(): SurfaceResource[] {
    return [...this.#surfaces.keys()].map((surfaceId) => ({
      uri: surfaceUri(surfaceId),
      name: surfaceId,
      mimeType: A2UI_MIME_TYPE,
      description: `The A2UI surface "${surfaceId}" as it stands.`,
    }));
  }

  /** `resources/read`: the messages that build the surface of `uri`; `undefined` if none. */
  read(uri: string): unknown[] | undefined {
    if (!uri.startsWith(A2UI_URI_SCHEME)) return undefined;
    let surfaceId: string;
    try {
      surfaceId = decodeURIComponent(uri.slice(A2UI_URI_SCHEME.length));
    } catch {
      return undefined;
    }
    const surface = this.#surfaces.get(surfaceId);
    if (!surface) return undefined;
    const version = surface.created.version;
    const components = [...surface.components.values()];
    const messages: unknown[] = [surface.created];
    if (components.length > 0)
      messages.push({ version, updateComponents: { surfaceId, components } });
    const value = surface.data.getSnapshot();
    if (value !== undefined)
      messages.push({ version, updateDataModel: { surfaceId, path: '/', value } });
    return messages;
  }

  /**
   * The events the current components fire (`action: {event: {name, context}}`), by name: the
   * MCP Apps draft's spelling of an action is a tool named after its event.
   */
  events(): Map<string, SurfaceEvent> {
    const found = new Map<string, SurfaceEvent>();
    const visit = (value: unknown, at: Omit<SurfaceEvent, 'contextKeys'>, depth: number) => {
      if (depth > MAX_EVENT_DEPTH || typeof value !== 'object' || value === null) return;
      if (Array.isArray(value)) {
        for (const item of value) visit(item, at, depth + 1);
        return;
      }
      const event = (value as { event?: unknown }).event;
      if (isRecord(event) && typeof event.name === 'string' && !found.has(event.name))
        found.set(event.name, {
          ...at,
          contextKeys: isRecord(event.context) ? Object.keys(event.context) : [],
        });
      for (const child of Object.values(value)) visit(child, at, depth + 1);
    };
    for (const [surfaceId, surface] of this.#surfaces)
      for (const [sourceComponentId, component] of surface.components)
        visit(component, { surfaceId, sourceComponentId }, 0);
    return found;
  }

  /** Stops following the log. */
  close(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #updateComponents(surfaceId: string, components: unknown): void {
    const surface = this.#surfaces.get(surfaceId);
    if (!surface || !Array.isArray(components)) return;
    for (const component of components)
      if (isRecord(component) && typeof component.id === 'string')
        surface.components.set(component.id, component);
  }

  #apply(entries: readonly ReplayEntry[]): void {
    const changed = new Set<string>();
    let listChanged = false;
    let componentsChanged = false;
    for (const entry of entries) {
      if (entry.seq <= this.#appliedSeq) continue;
      this.#appliedSeq = entry.seq;
      const message = (entry.message ?? JSON.parse(entry.data)) as Envelope;
      const about = surfaceOf(message);
      if (!about) continue;
      const body = message[about.kind] as Record<string, unknown>;
      if (about.kind === 'createSurface') {
        this.#surfaces.set(about.surfaceId, {
          created: message,
          components: new Map(),
          data: new DataModel(isRecord(body.dataModel) ? body.dataModel : {}),
        });
        // v1.0 may build the surface in its createSurface.
        this.#updateComponents(about.surfaceId, body.components);
        listChanged = true;
        componentsChanged = true;
      } else if (about.kind === 'deleteSurface') {
        listChanged ||= this.#surfaces.delete(about.surfaceId);
        componentsChanged = true;
      } else if (about.kind === 'updateComponents') {
        this.#updateComponents(about.surfaceId, body.components);
        componentsChanged = true;
      } else if (about.kind === 'updateDataModel') {
        const data = this.#surfaces.get(about.surfaceId)?.data;
        const path = typeof body.path === 'string' ? body.path : '/';
        if ('value' in body) data?.set(path, body.value);
        else data?.delete(path);
      } else continue; // function calls and the like do not change a surface
      changed.add(about.surfaceId);
    }
    if (changed.size === 0) return;
    let eventsChanged = false;
    if (componentsChanged) {
      const names = [...this.events().keys()].sort().join('\n');
      eventsChanged = names !== this.#eventNames;
      this.#eventNames = names;
    }
    this.#listener?.({ changed, listChanged, eventsChanged });
  }
}
