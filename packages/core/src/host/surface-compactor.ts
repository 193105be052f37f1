/**
 * The current state of a connection's surfaces, kept from the messages its agent sends, so the
 * host can answer a client its replay log no longer covers with a compacted snapshot instead of a
 * reset (docs/session-host.md "Snapshot instead of reset"). It keeps, per surface, the message
 * that created it, its components by id (the latest of each) and its data model — in the
 * surface's own protocol version (v0.9, v0.9.1, v1.0) — and nothing else: bounded by `maxBytes`,
 * like the replay log beside it.
 */
import { isRecord } from '../protocol/guards.js';
import { DataModel } from '../state/data-model.js';

/** One surface as last sent. */
interface SurfaceState {
  /** The envelope `version` the surface was created with. */
  readonly version: string;
  /** The `createSurface` body (without v1.0's inline components and data model). */
  readonly create: Record<string, unknown>;
  readonly components: Map<string, unknown>;
  /** The renderer's own data model, so every write lands exactly as it lands there. */
  readonly dataModel: DataModel;
}

/** Message kinds of the versions with `createSurface` (v0.9, v0.9.1, v1.0). */
const SURFACE_KINDS = ['createSurface', 'updateComponents', 'updateDataModel', 'deleteSurface'];

/** Messages that are no surface state (v1.0 function calls): they leave the state as it is. */
const STATELESS_KINDS = ['callRendererFunction', 'agentFunctionResponse'];

/** A deep copy through JSON: the state never shares objects with what an agent may still change. */
const copy = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

/**
 * Keeps the compacted state of one connection's surfaces. Feed it every sent message
 * ({@link note}); {@link snapshot} gives the messages that rebuild every surface, or `undefined`
 * once the state could not be kept (a v0.8 surface, or above `maxBytes`): the host then resets
 * the client as before.
 *
 * @example
 * ```ts
 * const compactor = new SurfaceCompactor({ maxBytes: 4_194_304 });
 * compactor.note(message, JSON.stringify(message).length);
 * compactor.snapshot(); // [{version, createSurface}, {version, updateComponents}, …]
 * ```
 */
export class SurfaceCompactor {
  readonly #maxBytes: number;
  readonly #surfaces = new Map<string, SurfaceState>();
  /** Bytes of state, counted high (what was sent since the last exact count): checked at `maxBytes`. */
  #bytes = 0;
  #lost = false;

  /** @param options - `maxBytes`: most UTF-16 code units of state kept (the replay log's cap) */
  constructor(options: { maxBytes: number }) {
    this.#maxBytes = options.maxBytes;
  }

  /** True while {@link snapshot} can answer. */
  get available(): boolean {
    return !this.#lost;
  }

  /**
   * Applies one message the agent sent (already validated). `bytes` is the length of its JSON.
   */
  note(message: unknown, bytes: number): void {
    if (this.#lost || !isRecord(message)) return;
    const version = message.version;
    const kind = SURFACE_KINDS.find((name) => name in message);
    if (!kind) {
      // v0.8 (no `createSurface`) is not compacted: its clients keep the reset they had.
      if (!STATELESS_KINDS.some((name) => name in message)) this.#lose();
      return;
    }
    const body = message[kind];
    if (typeof version !== 'string' || !isRecord(body) || typeof body.surfaceId !== 'string')
      return;
    this.#apply(version, kind, body, body.surfaceId);
    this.#bytes += bytes;
    if (this.#bytes > this.#maxBytes) this.#recount();
  }

  /**
   * The messages that rebuild every surface as of the last {@link note}, in creation order: per
   * surface its `createSurface`, then `updateComponents` and the data model (v1.0: all inline in
   * `createSurface`). `undefined` when the state is not kept. The messages share objects with
   * the state: serialise them before the next {@link note}.
   */
  snapshot(): unknown[] | undefined {
    if (this.#lost) return undefined;
    const messages: unknown[] = [];
    for (const [surfaceId, surface] of this.#surfaces) {
      const components = [...surface.components.values()];
      const model = surface.dataModel.getSnapshot();
      const hasModel = !(isRecord(model) && Object.keys(model).length === 0);
      if (surface.version === 'v1.0') {
        messages.push({
          version: surface.version,
          createSurface: {
            ...surface.create,
            ...(components.length > 0 ? { components } : {}),
            ...(hasModel ? { dataModel: model } : {}),
          },
        });
        continue;
      }
      messages.push({ version: surface.version, createSurface: surface.create });
      if (components.length > 0)
        messages.push({ version: surface.version, updateComponents: { surfaceId, components } });
      if (hasModel)
        messages.push({
          version: surface.version,
          updateDataModel: { surfaceId, path: '/', value: model },
        });
    }
    return messages;
  }

  /** Forgets everything (the connection ended). */
  clear(): void {
    for (const surface of this.#surfaces.values()) surface.dataModel.dispose();
    this.#surfaces.clear();
    this.#bytes = 0;
  }

  #apply(version: string, kind: string, body: Record<string, unknown>, surfaceId: string): void {
    // A surface created again starts over (and moves to the end of the creation order).
    if (kind === 'deleteSurface' || kind === 'createSurface') {
      this.#surfaces.get(surfaceId)?.dataModel.dispose();
      this.#surfaces.delete(surfaceId);
    }
    if (kind === 'deleteSurface') return;
    if (kind === 'createSurface') {
      const { components, dataModel, ...create } = copy(body);
      const surface: SurfaceState = {
        version,
        create,
        components: new Map(),
        dataModel: new DataModel(),
      };
      this.#surfaces.set(surfaceId, surface);
      if (dataModel !== undefined) this.#write(surface, '/', dataModel);
      if (Array.isArray(components)) this.#upsert(surface, components);
      return;
    }
    const surface = this.#surfaces.get(surfaceId);
    if (!surface) return;
    if (kind === 'updateComponents') {
      if (Array.isArray(body.components)) this.#upsert(surface, copy(body.components));
      return;
    }
    // updateDataModel: v0.9 deletes with an absent value, v1.0 with `null`.
    const path = typeof body.path === 'string' ? body.path : '/';
    const deletes = !('value' in body) || (version === 'v1.0' && body.value === null);
    this.#write(surface, path, deletes ? undefined : copy(body.value));
  }

  #write(surface: SurfaceState, path: string, value: unknown): void {
    try {
      surface.dataModel.set(path, value);
    } catch {
      // A write the renderer refuses too (a bad path, too deep): its model stays as it was there.
    }
  }

  #upsert(surface: SurfaceState, components: readonly unknown[]): void {
    for (const component of components)
      if (isRecord(component) && typeof component.id === 'string')
        surface.components.set(component.id, component);
  }

  /** Counts the state exactly; above `maxBytes` it is given up (the host resets as before). */
  #recount(): void {
    this.#bytes = JSON.stringify([...this.#surfaces.values()].map(toJson)).length;
    if (this.#bytes > this.#maxBytes) this.#lose();
  }

  #lose(): void {
    this.#lost = true;
    this.clear();
  }
}

const toJson = (surface: SurfaceState) => [
  surface.create,
  [...surface.components.values()],
  surface.dataModel.getSnapshot(),
];
