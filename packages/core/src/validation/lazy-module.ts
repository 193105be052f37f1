/**
 * A module that loads on first need: a dynamic `import()` a bundler splits into a chunk of its
 * own, with the synchronous access the engine's validators need once it has loaded.
 */
import { A2uiError } from '../errors/a2ui-error.js';

/**
 * Thrown by code that needs a {@link LazyModule} which has not loaded yet. `ready` settles when
 * the load does; `MessageProcessor` waits for it and applies the message then, in order.
 */
export class ModuleNotLoadedError extends A2uiError {
  /** Resolves when the module has loaded; rejects when the load failed. */
  readonly ready: Promise<void>;

  constructor(name: string, ready: Promise<void>) {
    super(
      'MODULE_NOT_LOADED',
      `The ${name} has not loaded yet: await loadValidators() before validating synchronously.`,
    );
    this.ready = ready;
  }
}

/** How many lazy modules have loaded so far: a value computed before a load may be stale. */
let loadedModules = 0;

/**
 * Counts the lazy modules loaded so far (provided ones do not count: they were there from the
 * start). A cached computation that met a module still loading compares it to know it is stale.
 */
export function loadedModuleCount(): number {
  return loadedModules;
}

/**
 * One lazily imported module. `get()` returns it once loaded and throws
 * {@link ModuleNotLoadedError} (starting the load) before; `provide()` hands it over when the
 * caller imported it statically (Node does, so server paths never wait).
 *
 * @example
 * ```ts
 * const schemas = new LazyModule('v0.8 schemas', () => import('./generated/v0-8.js'));
 * await schemas.load();
 * schemas.get().serverMessage(message);
 * ```
 */
export class LazyModule<T> {
  readonly #name: string;
  readonly #importer: () => Promise<T>;
  #module: T | undefined;
  #loading: Promise<void> | undefined;

  /**
   * @param name - what the module holds, for the error message (`"v0.9 basic catalog validator"`)
   * @param importer - `() => import('./module.js')`, written out so bundlers split it
   */
  constructor(name: string, importer: () => Promise<T>) {
    this.#name = name;
    this.#importer = importer;
  }

  /** True once the module is there (loaded or provided). */
  get loaded(): boolean {
    return this.#module !== undefined;
  }

  /** The module. @throws ModuleNotLoadedError `MODULE_NOT_LOADED` before it has loaded */
  get(): T {
    if (this.#module !== undefined) return this.#module;
    const ready = this.load();
    // Whoever catches the error decides whether to wait; an unwatched failure is not unhandled.
    ready.catch(() => {});
    throw new ModuleNotLoadedError(this.#name, ready);
  }

  /**
   * Loads the module (once; concurrent calls share the load). A failed load is forgotten, so the
   * next call tries again.
   */
  load(): Promise<void> {
    if (this.#module !== undefined) return Promise.resolve();
    this.#loading ??= this.#importer().then(
      (module) => {
        if (this.#module === undefined) loadedModules++;
        this.#module ??= module;
      },
      (error: unknown) => {
        this.#loading = undefined;
        throw new A2uiError('MODULE_NOT_LOADED', `The ${this.#name} failed to load.`, {
          cause: error,
        });
      },
    );
    return this.#loading;
  }

  /** Hands over the module imported statically; a later `load()` resolves at once. */
  provide(module: T): void {
    this.#module ??= module;
  }
}
