/**
 * A bounded map whose entries all live the same time: past `ttlMs`, or when `maxSize` newer
 * entries push them out, they are gone. Insertion order is expiry order, so one timer (for the
 * oldest entry, unreferenced so it never keeps a process alive) is enough however many entries
 * there are, and an empty map holds no timer.
 */
export class ExpiringMap<K, V> {
  readonly #ttlMs: number;
  readonly #maxSize: number;
  readonly #onExpire: ((key: K, value: V) => void) | undefined;
  readonly #entries = new Map<K, { value: V; expiresAt: number }>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: { ttlMs: number; maxSize: number; onExpire?: (key: K, value: V) => void }) {
    this.#ttlMs = options.ttlMs;
    this.#maxSize = Math.max(0, options.maxSize);
    this.#onExpire = options.onExpire;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.#drop(key, entry.value);
      return undefined;
    }
    return entry.value;
  }

  /** Adds `key` (replacing and renewing an entry of the same key); the oldest goes beyond `maxSize`. */
  set(key: K, value: V): void {
    if (this.#maxSize === 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: Date.now() + this.#ttlMs });
    while (this.#entries.size > this.#maxSize) {
      const [oldest, entry] = this.#entries.entries().next().value!;
      this.#drop(oldest, entry.value);
    }
    this.#schedule();
  }

  delete(key: K): void {
    this.#entries.delete(key);
    if (this.#entries.size === 0) this.#stop();
  }

  clear(): void {
    this.#entries.clear();
    this.#stop();
  }

  #drop(key: K, value: V): void {
    this.#entries.delete(key);
    this.#onExpire?.(key, value);
    if (this.#entries.size === 0) this.#stop();
  }

  #schedule(): void {
    if (this.#timer !== undefined) return;
    const oldest = this.#entries.values().next().value;
    if (oldest === undefined) return;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        const now = Date.now();
        for (const [key, entry] of this.#entries) {
          if (entry.expiresAt > now) break;
          this.#drop(key, entry.value);
        }
        this.#schedule();
      },
      Math.max(0, oldest.expiresAt - Date.now()),
    );
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
