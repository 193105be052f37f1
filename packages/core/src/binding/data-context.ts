/**
 * Resolution of dynamic values in a data scope (digest §6, §7.4, §8.1): literals, `{path}`
 * bindings and `{call}` function calls, one-shot or reactive.
 */
import { A2uiError, toA2uiError } from '../errors/a2ui-error.js';
import type { FunctionContext, FunctionImplementation } from '../functions/function-types.js';
import { isDataBinding, isFunctionCall, isRecord, setOwn } from '../protocol/guards.js';
import type { DataModel } from '../state/data-model.js';
import { resolvePointer } from '../state/json-pointer.js';
import { ModuleNotLoadedError } from '../validation/lazy-module.js';
import { DataObserver } from './data-observer.js';
import { evaluateSystemFunction, isSystemFunction } from './system-functions.js';

/** What a {@link DataContext} needs from its surface. */
export interface BindingHost {
  readonly surfaceId: string;
  readonly dataModel: DataModel;
  /** The surface catalog's functions by name. */
  readonly functions: ReadonlyMap<string, FunctionImplementation>;
  /** BCP 47 locale for functions; `undefined` = the runtime default. */
  readonly locale: string | undefined;
  /**
   * Templates iterate an object's own keys too, not only arrays: true on v0.8 surfaces (see
   * `ProtocolVersion.templatesIterateObjects`).
   * @default false
   */
  readonly templatesIterateObjects?: boolean;
  /** Receives expression errors (unknown function, bad args); the value becomes `undefined`. */
  reportError(error: A2uiError): void;
}

/** Options of one evaluation. */
export interface EvaluateOptions {
  /** Receives the absolute pointer of every path read. */
  dependencies?: Set<string>;
  /**
   * Opens a URL; pass it only while handling a user gesture so `openUrl` cannot run on its own
   * (ARCHITECTURE §5).
   */
  openUrl?: (url: string) => void;
}

/** A reactive evaluation: `get()` is stable until a dependency changes. */
export interface DynamicWatch {
  /** The current value (cached; identity kept until it changes). */
  get(): unknown;
  /** Stops listening to the data model. Idempotent. */
  dispose(): void;
}

/** Deepest nesting of function calls inside one dynamic value. */
const MAX_CALL_DEPTH = 16;

/**
 * A data scope of a surface. Components at the root use scope `/`; template items use
 * `<list path>/<index>` (§7.4).
 *
 * @example
 * ```ts
 * const context = new DataContext(host, '/items/0');
 * context.evaluate({ path: 'name' }); // reads /items/0/name
 * ```
 */
export class DataContext {
  readonly host: BindingHost;
  /** Absolute pointer of this scope. */
  readonly scope: string;
  /**
   * Index of the template item this scope renders (v1.0 "Collection Scope"), read by `@index`;
   * `undefined` in the root scope. Static children of a template item keep their parent's index.
   */
  readonly templateIndex: number | undefined;

  constructor(host: BindingHost, scope = '/', templateIndex?: number) {
    this.host = host;
    this.scope = scope;
    this.templateIndex = templateIndex;
  }

  /** Absolute pointer of `path` in this scope (§7.2). @throws A2uiError `INVALID_PATH` */
  resolvePath(path: string): string {
    return resolvePointer(path, this.scope);
  }

  /** The scope `path` (relative to this one, or absolute). */
  nested(path: string): DataContext {
    return new DataContext(this.host, this.resolvePath(path), this.templateIndex);
  }

  /** Reads a path in this scope (`undefined` when missing or malformed). */
  read(path: string, dependencies?: Set<string>): unknown {
    let absolute: string;
    try {
      absolute = this.resolvePath(path);
    } catch (error) {
      this.host.reportError(toA2uiError(error, 'INVALID_PATH'));
      return undefined;
    }
    dependencies?.add(absolute);
    return this.host.dataModel.get(absolute);
  }

  /**
   * Writes `value` at `path` in this scope — the two-way binding of inputs (§7.6).
   * @throws A2uiError `INVALID_PATH`, `DATA_ERROR`, `LIMIT_EXCEEDED`
   */
  write(path: string, value: unknown): void {
    this.host.dataModel.set(this.resolvePath(path), value);
  }

  /**
   * Resolves a dynamic value once. Literals come back as they are; `{path}` reads the model;
   * `{call}` runs the catalog function with resolved args. A failing call is reported to the host
   * as `EXPRESSION_ERROR` and gives `undefined` — it never throws.
   */
  evaluate(value: unknown, options: EvaluateOptions = {}): unknown {
    return this.#evaluate(value, options, 0);
  }

  /**
   * Resolves every value of an action's `context` at event time (§8.5); nested arrays and
   * objects of dynamic values are resolved too.
   */
  resolveContext(
    context: Record<string, unknown> | undefined,
    options: EvaluateOptions = {},
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (!context) return out;
    for (const [key, value] of Object.entries(context))
      setOwn(out, key, this.#resolveDeep(value, options, 0));
    return out;
  }

  /**
   * Evaluates `value` now and again whenever a path it read changes; calls `onChange` only when
   * the result differs (`Object.is`). Literals are never subscribed. A {@link DataObserver} with
   * one listener; use the observer itself to subscribe lazily (as `ComponentBinding` does).
   */
  watch(value: unknown, onChange: () => void): DynamicWatch {
    if (!isDynamic(value)) {
      return { get: () => value, dispose: () => {} };
    }
    const observer = new DataObserver(this.host.dataModel, (dependencies) =>
      this.evaluate(value, { dependencies }),
    );
    const unsubscribe = observer.subscribe(onChange);
    return { get: observer.getSnapshot, dispose: unsubscribe };
  }

  #evaluate(value: unknown, options: EvaluateOptions, depth: number): unknown {
    if (isDataBinding(value)) return this.read(value.path, options.dependencies);
    if (isFunctionCall(value)) return this.#call(value.call, value.args, options, depth);
    if (Array.isArray(value) && value.some(isDynamic))
      return value.map((item) => this.#evaluate(item, options, depth));
    return value;
  }

  #resolveDeep(value: unknown, options: EvaluateOptions, depth: number): unknown {
    if (isDataBinding(value) || isFunctionCall(value)) return this.#evaluate(value, options, depth);
    if (depth > MAX_CALL_DEPTH) return undefined;
    if (Array.isArray(value))
      return value.map((item) => this.#resolveDeep(item, options, depth + 1));
    if (isRecord(value)) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value))
        setOwn(out, key, this.#resolveDeep(item, options, depth + 1));
      return out;
    }
    return value;
  }

  #call(
    name: string,
    rawArgs: Record<string, unknown> | undefined,
    options: EvaluateOptions,
    depth: number,
  ): unknown {
    try {
      if (depth >= MAX_CALL_DEPTH) {
        throw new A2uiError(
          'LIMIT_EXCEEDED',
          `Function calls are nested deeper than ${MAX_CALL_DEPTH}.`,
        );
      }
      const fn = isSystemFunction(name) ? undefined : this.host.functions.get(name);
      if (!fn && !isSystemFunction(name))
        throw new A2uiError(
          'EXPRESSION_ERROR',
          `Function not found in the surface catalog: ${name}.`,
        );
      const args: Record<string, unknown> = {};
      if (isRecord(rawArgs)) {
        for (const [key, arg] of Object.entries(rawArgs))
          setOwn(args, key, this.#evaluate(arg, options, depth + 1));
      }
      if (!fn) return evaluateSystemFunction(name, args, this.templateIndex);
      return fn.execute(args, this.#functionContext(options, depth + 1));
    } catch (error) {
      if (error instanceof ModuleNotLoadedError) {
        // The function's code is still loading (`regex`'s RE2): nothing to report; what was
        // computed with it computes again once it is there.
        touchWhenLoaded(this.host.dataModel, error.ready);
        return undefined;
      }
      const failure = toA2uiError(error, 'EXPRESSION_ERROR');
      this.host.reportError(
        failure.code === 'EXPRESSION_ERROR' ||
          failure.code === 'LIMIT_EXCEEDED' ||
          failure.code === 'URL_BLOCKED'
          ? failure
          : new A2uiError('EXPRESSION_ERROR', `${name}: ${failure.message}`, { cause: error }),
      );
      return undefined;
    }
  }

  #functionContext(options: EvaluateOptions, depth: number): FunctionContext {
    return {
      locale: this.host.locale,
      read: (path) => this.read(path, options.dependencies),
      call: (name, args) => {
        // formatString's `${@index(offset: 1)}` reaches system functions through here.
        if (isSystemFunction(name)) return evaluateSystemFunction(name, args, this.templateIndex);
        const fn = this.host.functions.get(name);
        if (!fn)
          throw new A2uiError(
            'EXPRESSION_ERROR',
            `Function not found in the surface catalog: ${name}.`,
          );
        if (depth >= MAX_CALL_DEPTH) {
          throw new A2uiError(
            'LIMIT_EXCEEDED',
            `Function calls are nested deeper than ${MAX_CALL_DEPTH}.`,
          );
        }
        return fn.execute(args, this.#functionContext(options, depth + 1));
      },
      openUrl: options.openUrl,
    };
  }
}

/** Models waiting for a module, each touched once when it loads. */
const awaitingModules = new WeakSet<DataModel>();

function touchWhenLoaded(model: DataModel, ready: Promise<void>): void {
  if (awaitingModules.has(model)) return;
  awaitingModules.add(model);
  const touch = () => {
    awaitingModules.delete(model);
    model.touch();
  };
  ready.then(touch, touch);
}

/** True for a binding, a call, or an array containing one. */
export function isDynamic(value: unknown): boolean {
  if (isDataBinding(value) || isFunctionCall(value)) return true;
  return Array.isArray(value) && value.some(isDynamic);
}
