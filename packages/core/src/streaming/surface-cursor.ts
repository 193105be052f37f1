/**
 * Which surface the stream is writing to and the root component of each surface. A model may
 * name the root (`beginRendering.root`) before the surface id has been seen; such a root is held
 * until the surface is known.
 */
export class SurfaceCursor {
  #surfaceId: string | undefined;
  readonly #roots = new Map<string, string>();
  #unboundRoot: string | undefined;

  constructor(readonly defaultRootId: string | undefined) {}

  get surfaceId(): string | undefined {
    return this.#surfaceId;
  }

  set surfaceId(value: string | undefined) {
    this.#surfaceId = value;
    if (value !== undefined && this.#unboundRoot !== undefined) {
      this.#roots.set(value, this.#unboundRoot);
      this.#unboundRoot = undefined;
    }
  }

  /** The root component id of the current surface (the version's default when none was named). */
  get rootId(): string | undefined {
    if (this.#surfaceId) return this.#roots.get(this.#surfaceId) ?? this.defaultRootId;
    return this.#unboundRoot ?? this.defaultRootId;
  }

  set rootId(value: string | undefined) {
    if (!this.#surfaceId) {
      this.#unboundRoot = value;
    } else if (value === undefined) {
      this.#roots.delete(this.#surfaceId);
    } else {
      this.#roots.set(this.#surfaceId, value);
    }
  }
}
