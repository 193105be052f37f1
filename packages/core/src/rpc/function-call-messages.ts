/**
 * The v1.0 function-call messages (`agent_to_renderer.json` `callRendererFunction` /
 * `agentFunctionResponse`, `renderer_to_agent.json` `callAgentFunction` /
 * `rendererFunctionResponse`, `common_types.json#/$defs/FunctionResponse`), correlated by
 * `functionCallId`. Spec: `a2ui_protocol.md` "`callRendererFunction`", "`agentFunctionResponse`",
 * "Renderer-to-agent event messages".
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { isRecord } from '../protocol/guards.js';
import type { ValidationIssue } from '../validation/validation-issue.js';
import { V1_0_ENVELOPE_VERSIONS } from '../versions/v1-0-spelling.js';

/**
 * The envelope version function calls are written in: the first v1.0 spelling of the one
 * spelling table (`versions/v1-0-spelling.ts`), `"v1.0"` today.
 */
export const FUNCTION_CALL_VERSION: string = V1_0_ENVELOPE_VERSIONS[0]!;

/** Envelope spellings accepted inbound: every v1.0 spelling (`v1.0`, `1.0`). */
const ACCEPTED_VERSIONS = new Set(V1_0_ENVELOPE_VERSIONS);

/**
 * Error codes of function-call responses. The protocol doc names `EXECUTION_FAILED` where the
 * conformance suite expects `EXECUTION_ERROR`: we emit `EXECUTION_ERROR` (the suite) and treat both
 * alike inbound (docs/protocol-versions.md).
 */
export const FUNCTION_CALL_ERROR = {
  /** A function the caller may not call (`allowedCallers`), one not registered, bad arguments, no user activation. */
  INVALID_FUNCTION_CALL: 'INVALID_FUNCTION_CALL',
  /** The agent knows no function of that name. */
  UNKNOWN_FUNCTION: 'UNKNOWN_FUNCTION',
  /** The function ran and threw. */
  EXECUTION_ERROR: 'EXECUTION_ERROR',
} as const;

/** `{call, catalogId, args}` of a function-call message (`common_types.json#/$defs/FunctionCall`). */
export interface FunctionCallRequest {
  call: string;
  /** Required in `callRendererFunction`; in `callAgentFunction` the catalog the call came from. */
  catalogId?: string;
  args?: Record<string, unknown>;
}

/** `{code, message}` of a failed call. */
export interface FunctionCallError {
  code: string;
  message: string;
}

/** `FunctionResponse`: exactly one of `value` and `error`. */
export type FunctionResponse =
  | { functionCallId: string; value: unknown }
  | { functionCallId: string; error: FunctionCallError };

/** Agent → renderer: run a renderer function. */
export interface CallRendererFunctionMessage {
  version: string;
  callRendererFunction: { functionCallId: string; callFunction: FunctionCallRequest };
}
/** Agent → renderer: the answer to a `callAgentFunction`. */
export interface AgentFunctionResponseMessage {
  version: string;
  agentFunctionResponse: FunctionResponse;
}
/** Renderer → agent: run an agent function. */
export interface CallAgentFunctionMessage {
  version: string;
  callAgentFunction: {
    surfaceId: string;
    functionCallId: string;
    callFunction: FunctionCallRequest;
  };
}
/** Renderer → agent: the answer to a `callRendererFunction`. */
export interface RendererFunctionResponseMessage {
  version: string;
  rendererFunctionResponse: FunctionResponse;
}

/** The function-call messages an agent sends. */
export type AgentFunctionCallMessage = CallRendererFunctionMessage | AgentFunctionResponseMessage;
/** The function-call messages a renderer sends. */
export type RendererFunctionCallMessage =
  | CallAgentFunctionMessage
  | RendererFunctionResponseMessage;

/** The four message keys. */
export type FunctionCallMessageKind =
  | 'callRendererFunction'
  | 'agentFunctionResponse'
  | 'callAgentFunction'
  | 'rendererFunctionResponse';

const AGENT_KINDS = ['callRendererFunction', 'agentFunctionResponse'] as const;
const RENDERER_KINDS = ['callAgentFunction', 'rendererFunctionResponse'] as const;

/**
 * The function-call kind of `message`, when it is a v1.0 (or `1.0`) envelope with one of the
 * four keys; `undefined` for everything else (other messages go their usual way). A renderer's
 * `error` that carries a `functionCallId` (the protocol doc's form of a refused
 * `callRendererFunction`) counts as a `rendererFunctionResponse`.
 */
export function getFunctionCallKind(message: unknown): FunctionCallMessageKind | undefined {
  if (!isRecord(message) || !ACCEPTED_VERSIONS.has(message.version as string)) return undefined;
  for (const kind of [...AGENT_KINDS, ...RENDERER_KINDS]) if (kind in message) return kind;
  if (isRecord(message.error) && typeof message.error.functionCallId === 'string')
    return 'rendererFunctionResponse';
  return undefined;
}

const issue = (path: string, message: string): ValidationIssue[] => [{ path, message }];

function checkCallFunction(value: unknown, path: string, needsCatalog: boolean): ValidationIssue[] {
  if (!isRecord(value)) return issue(path, 'Expected a {"call", "catalogId", "args"} object.');
  if (typeof value.call !== 'string' || value.call === '')
    return issue(`${path}/call`, 'Expected the function name as a non-empty string.');
  if (needsCatalog && typeof value.catalogId !== 'string')
    return issue(`${path}/catalogId`, 'Missing required property "catalogId".');
  if (value.catalogId !== undefined && typeof value.catalogId !== 'string')
    return issue(`${path}/catalogId`, 'Expected a string.');
  if (value.args !== undefined && !isRecord(value.args))
    return issue(`${path}/args`, 'Expected an object of arguments.');
  return [];
}

function checkResponse(value: unknown, path: string): ValidationIssue[] {
  if (!isRecord(value))
    return issue(path, 'Expected a {"functionCallId", "value" | "error"} object.');
  if (typeof value.functionCallId !== 'string')
    return issue(`${path}/functionCallId`, 'Missing required property "functionCallId".');
  const hasValue = 'value' in value;
  const hasError = 'error' in value;
  if (hasValue === hasError) return issue(path, 'Expected exactly one of "value" and "error".');
  if (hasError) {
    const error = value.error;
    if (!isRecord(error) || typeof error.code !== 'string' || typeof error.message !== 'string')
      return issue(`${path}/error`, 'Expected {"code": string, "message": string}.');
  }
  return [];
}

/**
 * Checks a function-call message's shape (the four messages of v1.0, plus the `error` form of
 * a refused call). An empty list means valid.
 *
 * @param message - The parsed message.
 * @returns Issues with JSON Pointers into the message.
 *
 * @example
 * ```ts
 * checkFunctionCallMessage({ version: 'v1.0', rendererFunctionResponse: { functionCallId: 'c1' } });
 * // [{ path: '/rendererFunctionResponse', message: 'Expected exactly one of "value" and "error".' }]
 * ```
 */
export function checkFunctionCallMessage(message: unknown): ValidationIssue[] {
  const kind = getFunctionCallKind(message);
  if (!kind || !isRecord(message)) return issue('', 'Not a v1.0 function-call message.');
  const keys = Object.keys(message).filter((key) => key !== 'version');
  if (keys.length !== 1)
    return issue('', `Expected exactly one message key beside "version", got ${keys.join(', ')}.`);
  const body = message[keys[0]!];
  const at = `/${keys[0]}`;
  if (keys[0] === 'error') {
    if (!isRecord(body) || typeof body.code !== 'string' || typeof body.message !== 'string')
      return issue(at, 'Expected {"code", "message", "functionCallId"}.');
    return [];
  }
  if (kind === 'agentFunctionResponse' || kind === 'rendererFunctionResponse')
    return checkResponse(body, at);
  if (!isRecord(body)) return issue(at, 'Expected an object.');
  if (typeof body.functionCallId !== 'string' || body.functionCallId === '')
    return issue(`${at}/functionCallId`, 'Missing required property "functionCallId".');
  if (kind === 'callAgentFunction' && typeof body.surfaceId !== 'string')
    return issue(`${at}/surfaceId`, 'Missing required property "surfaceId".');
  return checkCallFunction(
    body.callFunction,
    `${at}/callFunction`,
    kind === 'callRendererFunction',
  );
}

/**
 * The `FunctionResponse` carried by a response message, in either inbound form:
 * `{rendererFunctionResponse | agentFunctionResponse: {...}}` or `{error: {code, message,
 * functionCallId}}`.
 */
export function readFunctionResponse(
  message: Record<string, unknown>,
): FunctionResponse | undefined {
  const body = message.rendererFunctionResponse ?? message.agentFunctionResponse;
  if (isRecord(body) && typeof body.functionCallId === 'string') return body as FunctionResponse;
  const error = message.error;
  if (isRecord(error) && typeof error.functionCallId === 'string') {
    return {
      functionCallId: error.functionCallId,
      error: { code: String(error.code), message: String(error.message) },
    };
  }
  return undefined;
}

/**
 * The error a caller sees for an error response: `FUNCTION_CALL_FAILED`, with the peer's code
 * (`data.code`; the protocol doc's `EXECUTION_FAILED` is read as `EXECUTION_ERROR`), its message
 * and the `functionCallId`.
 */
export function functionCallFailure(
  functionCallId: string,
  name: string,
  error: FunctionCallError,
): A2uiError {
  const code = error.code === 'EXECUTION_FAILED' ? FUNCTION_CALL_ERROR.EXECUTION_ERROR : error.code;
  return new A2uiError(
    'FUNCTION_CALL_FAILED',
    `Function "${name}" failed (${code}): ${error.message}`,
    { data: { functionCallId, code, message: error.message } },
  );
}

/**
 * Whether a client message must overtake the client's queue of unanswered messages
 * (`OutboxOptions.overtakes`): a `rendererFunctionResponse`, which the agent's waiting hook needs
 * before any message queued after it can be handled, and which the server never queues.
 */
export function isOvertakingMessage(message: unknown): boolean {
  return getFunctionCallKind(message) === 'rendererFunctionResponse';
}
