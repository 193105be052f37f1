/**
 * The agent's side of renderer-initiated calls (v1.0 `callAgentFunction`): functions the agent
 * declares with a JSON Schema of their arguments, checked before the agent's code sees them, and
 * the `agentFunctionResponse` every call gets.
 */
import { isRecord } from '../protocol/guards.js';
import type { ValidationIssue } from '../validation/validation-issue.js';
import {
  type AgentFunctionResponseMessage,
  FUNCTION_CALL_ERROR,
  FUNCTION_CALL_VERSION,
  type FunctionCallRequest,
  type FunctionResponse,
} from './function-call-messages.js';

/** What an agent function is given besides its arguments. */
export interface AgentFunctionContext {
  readonly functionCallId: string;
  /** The surface the call came from. */
  readonly surfaceId: string;
  /** The catalog the renderer named, if any. */
  readonly catalogId: string | undefined;
}

/** An argument check: the issues found (empty = valid). */
export type AgentFunctionArgsValidator = (args: Record<string, unknown>) => ValidationIssue[];

/** A function the agent exposes to renderers. */
export interface AgentFunction {
  /** The name renderers call (`callFunction.call`). */
  readonly name: string;
  readonly description?: string;
  /**
   * JSON Schema (draft 2020-12) of the arguments object; a call whose `args` do not match is
   * answered `INVALID_FUNCTION_CALL` and never reaches {@link handler}. Compiled with Ajv on the
   * first call (the compiler is loaded then, so agent code that declares none never loads it).
   * @default any object
   */
  readonly parameters?: Record<string, unknown>;
  /** A ready-made check used instead of compiling `parameters` (e.g. precompiled, or zod). */
  readonly validateArgs?: AgentFunctionArgsValidator;
  /** Runs the function; its result (or `null` for `undefined`) is the response's `value`. */
  readonly handler: (
    args: Record<string, unknown>,
    context: AgentFunctionContext,
  ) => unknown | Promise<unknown>;
}

/** Options of {@link AgentFunctionRegistry}. */
export interface AgentFunctionRegistryOptions {
  /** Told about a handler that threw (its text never reaches the renderer). @default ignored */
  onFunctionError?: (error: unknown, name: string) => void;
}

const refusal = (functionCallId: string, code: string, message: string): FunctionResponse => ({
  functionCallId,
  error: { code, message },
});

async function compileParameters(
  schema: Record<string, unknown>,
): Promise<AgentFunctionArgsValidator> {
  // Loaded on demand: the Ajv compiler stays out of bundles that never declare agent functions.
  const [{ createA2uiAjv }, { ajvErrorsToIssues }] = await Promise.all([
    import('../validation/create-ajv.js'),
    import('../validation/ajv-errors-to-issues.js'),
  ]);
  const validate = createA2uiAjv().compile(schema);
  return (args) => (validate(args) ? [] : ajvErrorsToIssues(validate.errors ?? [], args));
}

/**
 * Agent functions by name, and the answer to each `callAgentFunction`.
 *
 * @example
 * ```ts
 * const functions = new AgentFunctionRegistry([{
 *   name: 'verifyProvider',
 *   parameters: { type: 'object', properties: { providerId: { type: 'string' } }, required: ['providerId'] },
 *   handler: async ({ providerId }) => lookUp(providerId),
 * }]);
 * ```
 */
export class AgentFunctionRegistry {
  readonly #functions = new Map<string, AgentFunction>();
  readonly #validators = new Map<string, Promise<AgentFunctionArgsValidator>>();
  readonly #onFunctionError: ((error: unknown, name: string) => void) | undefined;

  constructor(functions: Iterable<AgentFunction> = [], options: AgentFunctionRegistryOptions = {}) {
    for (const fn of functions) this.register(fn);
    this.#onFunctionError = options.onFunctionError;
  }

  /** Adds (or replaces) a function. */
  register(fn: AgentFunction): this {
    this.#functions.set(fn.name, fn);
    this.#validators.delete(fn.name);
    return this;
  }

  /** The declared functions. */
  values(): IterableIterator<AgentFunction> {
    return this.#functions.values();
  }

  #validator(fn: AgentFunction): Promise<AgentFunctionArgsValidator> {
    let validator = this.#validators.get(fn.name);
    if (!validator) {
      validator = fn.validateArgs
        ? Promise.resolve(fn.validateArgs)
        : fn.parameters
          ? compileParameters(fn.parameters)
          : Promise.resolve(() => []);
      this.#validators.set(fn.name, validator);
    }
    return validator;
  }

  /**
   * Answers one `callAgentFunction` body. Never throws and always answers: an unknown function
   * gets `UNKNOWN_FUNCTION`, arguments that fail the schema (or a schema that does not compile)
   * `INVALID_FUNCTION_CALL` naming the first problem, a throwing handler `EXECUTION_ERROR` with
   * a fixed message (its own text stays here).
   *
   * @param body - `{surfaceId, functionCallId, callFunction}` as received.
   * @returns The `FunctionResponse`.
   */
  async handle(body: unknown): Promise<FunctionResponse> {
    const record = isRecord(body) ? body : {};
    const functionCallId = typeof record.functionCallId === 'string' ? record.functionCallId : '';
    const request = (
      isRecord(record.callFunction) ? record.callFunction : {}
    ) as Partial<FunctionCallRequest>;
    const name = typeof request.call === 'string' ? request.call : '';
    const fn = this.#functions.get(name);
    if (!fn)
      return refusal(
        functionCallId,
        FUNCTION_CALL_ERROR.UNKNOWN_FUNCTION,
        `Function '${name}' is not defined by this agent.`,
      );
    const args = isRecord(request.args) ? request.args : {};
    let issues: ValidationIssue[];
    try {
      issues = (await this.#validator(fn))(args);
    } catch (error) {
      this.#onFunctionError?.(error, name);
      issues = [{ path: '', message: 'The function’s parameter schema does not compile.' }];
    }
    if (issues.length > 0) {
      const [first] = issues;
      return refusal(
        functionCallId,
        FUNCTION_CALL_ERROR.INVALID_FUNCTION_CALL,
        `Invalid arguments for '${name}' at "${first!.path}": ${first!.message}`,
      );
    }
    try {
      const value = await fn.handler(args, {
        functionCallId,
        surfaceId: typeof record.surfaceId === 'string' ? record.surfaceId : '',
        catalogId: request.catalogId,
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

  /** {@link handle}, wrapped as the `agentFunctionResponse` message to send back. */
  async respond(body: unknown): Promise<AgentFunctionResponseMessage> {
    return { version: FUNCTION_CALL_VERSION, agentFunctionResponse: await this.handle(body) };
  }
}
