/**
 * The renderer's side of agent-initiated calls (v1.0 `callRendererFunction`): functions the
 * renderer exposes, who may call them (`allowedCallers`), whether they need a user gesture
 * (`requiresUserActivation`), and the `rendererFunctionResponse` every call gets.
 */
import type { AllowedCallers } from '../catalog/catalog-definition.js';
import { A2uiError } from '../errors/a2ui-error.js';
import { isRecord } from '../protocol/guards.js';
import {
  FUNCTION_CALL_ERROR,
  FUNCTION_CALL_VERSION,
  type FunctionCallRequest,
  type FunctionResponse,
  type RendererFunctionResponseMessage,
} from './function-call-messages.js';

/** What a renderer function is given besides its arguments. */
export interface RendererFunctionContext {
  readonly functionCallId: string;
  /** The catalog the agent named. */
  readonly catalogId: string | undefined;
  /** True when the call consumed a user activation. */
  readonly userActivation: boolean;
}

/** A function the renderer exposes to agents. */
export interface RendererFunction {
  /** The catalog function name (`callFunction.call`). */
  readonly name: string;
  /** Answer only calls naming this catalog. @default any catalog */
  readonly catalogId?: string;
  /**
   * Who may call it. Only `agentOnly` and `rendererOrAgent` functions answer agents; a
   * `rendererOnly` one is refused with `INVALID_FUNCTION_CALL`.
   * @default "rendererOnly"
   */
  readonly allowedCallers?: AllowedCallers;
  /**
   * Needs a recent user gesture ({@link RendererFunctionRegistry.noteUserActivation}); without
   * one the call is refused with `INVALID_FUNCTION_CALL`.
   * @default false
   */
  readonly requiresUserActivation?: boolean;
  /** Runs the function; its result (or `null` for `undefined`) is the response's `value`. */
  readonly implementation: (
    args: Record<string, unknown>,
    context: RendererFunctionContext,
  ) => unknown | Promise<unknown>;
}

/** Options of {@link RendererFunctionRegistry}. */
export interface RendererFunctionRegistryOptions {
  /**
   * How long a noted user gesture allows one activation-gated call, in milliseconds (browsers
   * keep transient activation about this long).
   * @default 5000
   */
  userActivationWindowMs?: number;
  /** Told about a function that threw (its text never reaches the agent). @default ignored */
  onFunctionError?: (error: unknown, name: string) => void;
}

/** Options of {@link RendererFunctionRegistry.handle}. */
export interface HandleRendererCallOptions {
  /**
   * Whether the call runs in a user gesture: `true` allows an activation-gated function without a
   * noted gesture, `false` refuses it even after one.
   * @default a gesture noted within `userActivationWindowMs`, consumed by the call
   */
  userActivation?: boolean;
}

const refusal = (functionCallId: string, code: string, message: string): FunctionResponse => ({
  functionCallId,
  error: { code, message },
});

/**
 * Renderer functions by name, and the answer to each `callRendererFunction`.
 *
 * @example
 * ```ts
 * const functions = new RendererFunctionRegistry();
 * functions.register({ name: 'getScreenResolution', allowedCallers: 'agentOnly',
 *   implementation: () => [screen.width, screen.height] });
 * ```
 */
export class RendererFunctionRegistry {
  readonly #functions = new Map<string, RendererFunction>();
  readonly #windowMs: number;
  readonly #onFunctionError: ((error: unknown, name: string) => void) | undefined;
  #activationAt: number | undefined;

  constructor(options: RendererFunctionRegistryOptions = {}) {
    this.#windowMs = options.userActivationWindowMs ?? 5000;
    this.#onFunctionError = options.onFunctionError;
  }

  /**
   * Adds (or replaces) a function.
   * @throws A2uiError `VALIDATION_FAILED` when `allowedCallers` is not one of the three values
   */
  register(fn: RendererFunction): this {
    const callers = fn.allowedCallers ?? 'rendererOnly';
    if (!['rendererOnly', 'agentOnly', 'rendererOrAgent'].includes(callers))
      throw new A2uiError(
        'VALIDATION_FAILED',
        `Renderer function "${fn.name}" has allowedCallers ${JSON.stringify(callers)}.`,
      );
    this.#functions.set(fn.name, fn);
    return this;
  }

  /** Removes a function. */
  unregister(name: string): boolean {
    return this.#functions.delete(name);
  }

  /**
   * Says that a user gesture (click, key press) just happened: the next activation-gated call
   * within `userActivationWindowMs` may run, and consumes it.
   */
  noteUserActivation(): void {
    this.#activationAt = Date.now();
  }

  #consumeActivation(): boolean {
    const at = this.#activationAt;
    this.#activationAt = undefined;
    return at !== undefined && Date.now() - at <= this.#windowMs;
  }

  /**
   * Answers one `callRendererFunction` body. Never throws and always answers: a refused call gets
   * `INVALID_FUNCTION_CALL` (unknown function, another catalog, `rendererOnly`, no user
   * activation), a throwing one `EXECUTION_ERROR` with a fixed message (its own text stays
   * here), a `void` one `value: null`.
   *
   * @param body - `{functionCallId, callFunction}` as received.
   * @param options - See {@link HandleRendererCallOptions}.
   * @returns The `FunctionResponse`.
   */
  async handle(body: unknown, options: HandleRendererCallOptions = {}): Promise<FunctionResponse> {
    const record = isRecord(body) ? body : {};
    const functionCallId = typeof record.functionCallId === 'string' ? record.functionCallId : '';
    const request = (
      isRecord(record.callFunction) ? record.callFunction : {}
    ) as Partial<FunctionCallRequest>;
    const name = typeof request.call === 'string' ? request.call : '';
    const fn = this.#functions.get(name);
    if (!fn || (fn.catalogId !== undefined && fn.catalogId !== request.catalogId))
      return refusal(
        functionCallId,
        FUNCTION_CALL_ERROR.INVALID_FUNCTION_CALL,
        `Function '${name}' is not registered on this renderer${request.catalogId ? ` for catalog '${request.catalogId}'` : ''}.`,
      );
    if ((fn.allowedCallers ?? 'rendererOnly') === 'rendererOnly')
      return refusal(
        functionCallId,
        FUNCTION_CALL_ERROR.INVALID_FUNCTION_CALL,
        `Function '${name}' cannot be called by agent (allowedCallers is rendererOnly).`,
      );
    let userActivation = false;
    if (fn.requiresUserActivation) {
      userActivation = options.userActivation ?? this.#consumeActivation();
      if (!userActivation)
        return refusal(
          functionCallId,
          FUNCTION_CALL_ERROR.INVALID_FUNCTION_CALL,
          `Function '${name}' requires user activation context to execute.`,
        );
    }
    try {
      const args = isRecord(request.args) ? request.args : {};
      const value = await fn.implementation(args, {
        functionCallId,
        catalogId: request.catalogId,
        userActivation,
      });
      return { functionCallId, value: value === undefined ? null : value };
    } catch (error) {
      this.#onFunctionError?.(error, name);
      return refusal(
        functionCallId,
        FUNCTION_CALL_ERROR.EXECUTION_ERROR,
        'An error occurred during function execution.',
      );
    }
  }

  /**
   * {@link handle}, wrapped as the `rendererFunctionResponse` message to send back.
   */
  async respond(
    body: unknown,
    options: HandleRendererCallOptions = {},
  ): Promise<RendererFunctionResponseMessage> {
    return {
      version: FUNCTION_CALL_VERSION,
      rendererFunctionResponse: await this.handle(body, options),
    };
  }
}
