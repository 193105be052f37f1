/**
 * LAVS's JSON-RPC 2.0 messages (spec §5.2, §5.4) and the one dispatcher both transports use:
 * HTTP serves `lavs/call`; the WebSocket also `lavs/subscribe` and `lavs/unsubscribe`, and
 * pushes `lavs/data`. Batches are served as JSON-RPC 2.0 §6 says, up to a bound.
 */
import { LavsError, type LavsErrorObject, toLavsErrorObject } from '../errors/lavs-error.js';
import type { LavsRuntime } from '../runtime/lavs-runtime.js';

/** A JSON-RPC 2.0 request id. */
export type JsonRpcId = string | number | null;

/** A JSON-RPC 2.0 response (spec §5.2.2). */
export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: LavsErrorObject };

/** A `lavs/data` push (spec §5.4): a notification, no id. */
export interface LavsDataNotification {
  jsonrpc: '2.0';
  method: 'lavs/data';
  params: { subscriptionId: string; data: unknown };
}

/** What a transport offers beyond `lavs/call`: subscriptions (the WebSocket does). */
export interface SubscriptionHost {
  /** Starts a subscription; @returns its id. @throws `LavsError` */
  subscribe(endpointId: string, input: unknown): string;
  /** Ends one; @returns whether it existed. */
  unsubscribe(subscriptionId: string): boolean;
}

/** Context of one dispatch. */
export interface DispatchContext {
  readonly runtime: LavsRuntime;
  /** Who sent it, for the audit log. */
  readonly principal: unknown;
  /** Most requests in one batch. */
  readonly maxBatchSize: number;
  /** Cancels the calls (the client went away). */
  readonly signal?: AbortSignal;
  /** Present on transports that serve subscriptions. */
  readonly subscriptions?: SubscriptionHost;
}

const response = (
  id: JsonRpcId,
  outcome: { result: unknown } | { error: unknown },
): JsonRpcResponse =>
  'result' in outcome
    ? { jsonrpc: '2.0', id, result: outcome.result ?? null }
    : { jsonrpc: '2.0', id, error: toLavsErrorObject(outcome.error) };

/** The id of a request, when it has a valid one (`undefined`: a notification or none). */
function idOf(message: unknown): JsonRpcId | undefined {
  if (typeof message !== 'object' || message === null || !('id' in message)) return undefined;
  const id = (message as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' || id === null ? id : null;
}

/**
 * Serves one parsed JSON-RPC payload: a request, a notification or a batch.
 *
 * @returns the response (an array for a batch), or `undefined` when there is nothing to answer
 */
export async function dispatchJsonRpc(
  payload: unknown,
  context: DispatchContext,
): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
  if (!Array.isArray(payload)) return dispatchOne(payload, context);
  if (payload.length === 0)
    return response(null, { error: new LavsError('INVALID_REQUEST', 'the batch is empty') });
  if (payload.length > context.maxBatchSize)
    return response(null, {
      error: new LavsError(
        'INVALID_REQUEST',
        `a batch holds at most ${context.maxBatchSize} requests`,
        {
          data: { maxBatchSize: context.maxBatchSize },
        },
      ),
    });
  const answers = await Promise.all(payload.map((message) => dispatchOne(message, context)));
  const sent = answers.filter((answer): answer is JsonRpcResponse => answer !== undefined);
  return sent.length > 0 ? sent : undefined;
}

async function dispatchOne(
  message: unknown,
  context: DispatchContext,
): Promise<JsonRpcResponse | undefined> {
  const id = idOf(message);
  const record = message as Record<string, unknown>;
  const valid =
    typeof message === 'object' &&
    message !== null &&
    !Array.isArray(message) &&
    record.jsonrpc === '2.0' &&
    typeof record.method === 'string' &&
    (id !== null || record.id === null) &&
    (record.params === undefined || (typeof record.params === 'object' && record.params !== null));
  if (!valid)
    return response(id ?? null, {
      error: new LavsError('INVALID_REQUEST', 'not a JSON-RPC 2.0 request'),
    });
  const outcome = await run(
    record.method as string,
    (record.params ?? {}) as Record<string, unknown>,
    context,
  ).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  // A notification (no id) is answered with nothing, even on error (JSON-RPC 2.0 §4.1).
  return id === undefined ? undefined : response(id, outcome);
}

async function run(
  method: string,
  params: Record<string, unknown>,
  context: DispatchContext,
): Promise<unknown> {
  const endpoint = () => {
    if (typeof params.endpoint !== 'string')
      throw new LavsError('INVALID_PARAMS', 'params.endpoint must be a string');
    return params.endpoint;
  };
  switch (method) {
    case 'lavs/call':
      return context.runtime.call(endpoint(), params.input, {
        principal: context.principal,
        signal: context.signal,
      });
    case 'lavs/subscribe':
    case 'lavs/unsubscribe': {
      const host = context.subscriptions;
      if (host === undefined)
        throw new LavsError('METHOD_NOT_FOUND', `${method} is served over the WebSocket only`);
      if (method === 'lavs/subscribe')
        return { subscriptionId: host.subscribe(endpoint(), params.input) };
      if (typeof params.subscriptionId !== 'string')
        throw new LavsError('INVALID_PARAMS', 'params.subscriptionId must be a string');
      if (!host.unsubscribe(params.subscriptionId))
        throw new LavsError(
          'INVALID_PARAMS',
          `no subscription ${JSON.stringify(params.subscriptionId)}`,
        );
      return { unsubscribed: true };
    }
    default:
      throw new LavsError('METHOD_NOT_FOUND', `no method ${JSON.stringify(method).slice(0, 80)}`);
  }
}
