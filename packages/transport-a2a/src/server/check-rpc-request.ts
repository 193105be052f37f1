/**
 * The shape of an A2A JSON-RPC request and of every method's params, checked before the SDK reads
 * them. The SDK trusts the types of what it reads (a numeric task id reaches `taskId.trim()`, an
 * absent push config `config.id`), and answers the resulting `TypeError` with its text as −32603;
 * checked here first, a client learns what is wrong (−32602 naming the member) and never sees an
 * internal message. Only types are checked, as loosely as the SDK reads them (a v1.0 member under
 * its proto name too, `message_id`; an integer as a JSON number or a string of digits, as proto3
 * JSON allows): what a value means stays the SDK's and the handler's.
 */

import { isRecord } from '@a2ui-ts/core';

/** A refusal of the request: its JSON-RPC code and message. */
export interface RpcRequestProblem {
  /** −32600 (not a JSON-RPC 2.0 request) or −32602 (invalid params). */
  readonly code: -32600 | -32602;
  readonly message: string;
  /** For −32602: a JSON Pointer to the bad member, relative to `params` (`/message/parts/0`). */
  readonly path?: string;
}

/** A member's type: `?` marks an optional one (absent or `null`). */
type Kind = 'string' | 'non-empty string' | 'integer' | 'boolean' | 'object' | 'array';
interface Shape {
  readonly [member: string]: Kind | `${Kind}?` | Shape;
}

/** An A2A message, v1.0 (`role` an enum name or number) and v0.3 alike. */
const MESSAGE: Shape = {
  messageId: 'non-empty string',
  // Proto3 JSON leaves out an empty repeated field.
  parts: 'array?',
  contextId: 'string?',
  taskId: 'string?',
  metadata: 'object?',
  extensions: 'array?',
  referenceTaskIds: 'array?',
};
const SEND: Shape = { message: MESSAGE, configuration: 'object?', metadata: 'object?' };
const TASK: Shape = { id: 'non-empty string', historyLength: 'integer?', metadata: 'object?' };

/** Params of every method the server knows, v1.0 then v0.3 (an unknown method is the SDK's −32601). */
const PARAMS: Readonly<Record<string, Shape>> = {
  SendMessage: SEND,
  SendStreamingMessage: SEND,
  GetTask: TASK,
  CancelTask: TASK,
  SubscribeToTask: TASK,
  ListTasks: {
    contextId: 'string?',
    pageSize: 'integer?',
    pageToken: 'string?',
    historyLength: 'integer?',
    includeArtifacts: 'boolean?',
    statusTimestampAfter: 'string?',
  },
  CreateTaskPushNotificationConfig: { taskId: 'non-empty string' },
  GetTaskPushNotificationConfig: { taskId: 'non-empty string', id: 'string?' },
  ListTaskPushNotificationConfigs: { taskId: 'non-empty string', pageToken: 'string?' },
  DeleteTaskPushNotificationConfig: { taskId: 'non-empty string', id: 'string?' },
  GetExtendedAgentCard: {},
  'message/send': SEND,
  'message/stream': SEND,
  'tasks/get': TASK,
  'tasks/cancel': TASK,
  'tasks/resubscribe': TASK,
  'tasks/pushNotificationConfig/set': {
    taskId: 'non-empty string',
    pushNotificationConfig: { url: 'string?' },
  },
  'tasks/pushNotificationConfig/get': {
    id: 'non-empty string',
    pushNotificationConfigId: 'string?',
  },
  'tasks/pushNotificationConfig/list': { id: 'non-empty string' },
  'tasks/pushNotificationConfig/delete': {
    id: 'non-empty string',
    pushNotificationConfigId: 'non-empty string',
  },
  'agent/getAuthenticatedExtendedCard': {},
};

/** Longest JSON-RPC `id` string, in characters (as the other bindings' `maxRequestIdLength`). */
export const MAX_RPC_ID_LENGTH = 256;

/** Methods whose params may be left out. */
const PARAMS_OPTIONAL = new Set(['GetExtendedAgentCard', 'agent/getAuthenticatedExtendedCard']);

const invalidRequest = (why: string): RpcRequestProblem => ({
  code: -32600,
  message: `Invalid Request: ${why}`,
});

/**
 * Checks `payload` (parsed JSON) as an A2A JSON-RPC request.
 *
 * @returns the problem to answer with, or `undefined` when the SDK may read it
 *
 * @example
 * ```ts
 * checkRpcRequest({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 5 } });
 * // { code: -32602, message: 'Invalid params: params.id must be a non-empty string (got number).' }
 * ```
 */
export function checkRpcRequest(payload: unknown): RpcRequestProblem | undefined {
  if (!isRecord(payload)) return invalidRequest('the body must be a JSON-RPC 2.0 request object.');
  if (payload.jsonrpc !== '2.0') return invalidRequest('"jsonrpc" must be "2.0".');
  const id = payload.id;
  if ('id' in payload && id !== null && typeof id !== 'string' && !Number.isInteger(id))
    return invalidRequest('"id" must be a string, an integer or null.');
  // Answered with id null (as any invalid request): an over-long id is never echoed whole.
  if (typeof id === 'string' && id.length > MAX_RPC_ID_LENGTH)
    return invalidRequest(`"id" has at most ${MAX_RPC_ID_LENGTH} characters.`);
  if (typeof payload.method !== 'string' || payload.method === '')
    return invalidRequest('"method" must be a non-empty string.');
  const shape = PARAMS[payload.method];
  if (!shape) return undefined;
  if (payload.params === undefined && PARAMS_OPTIONAL.has(payload.method)) return undefined;
  let problem = checkShape(payload.params, shape, 'params');
  if (!problem && shape === SEND) {
    const parts = ((payload.params as Record<string, unknown>).message as Record<string, unknown>)
      .parts;
    if (Array.isArray(parts)) problem = checkParts(parts, payload.method.includes('/'));
  }
  if (!problem) return undefined;
  const path = problem.at.replace(/^params/, '').replace(/[./]/g, '/');
  return { code: -32602, message: `Invalid params: ${problem.message}`, path };
}

interface Mismatch {
  /** Where, in dotted names from `params` (`params.message.parts/0`). */
  readonly at: string;
  readonly message: string;
}

const mismatch = (at: string, expected: string, value: unknown): Mismatch => ({
  at,
  message: `${at} must be ${expected} (got ${typeOf(value)}).`,
});

/** The first member of `value` (at `where`) that does not fit `shape`. */
function checkShape(value: unknown, shape: Shape, where: string): Mismatch | undefined {
  if (!isRecord(value)) return mismatch(where, 'an object', value);
  for (const [name, kind] of Object.entries(shape)) {
    const member = value[name] ?? value[protoName(name)];
    const at = `${where}.${name}`;
    if (typeof kind !== 'string') {
      const problem = checkShape(member, kind, at);
      if (problem) return problem;
      continue;
    }
    const optional = kind.endsWith('?');
    if (optional && (member === undefined || member === null)) continue;
    const base = (optional ? kind.slice(0, -1) : kind) as Kind;
    if (!fits(member, base)) return mismatch(at, article(base), member);
  }
  // Parts are objects: the handler reads each one's members.
  if (Array.isArray(value.parts)) {
    const index = value.parts.findIndex((part) => !isRecord(part));
    if (index !== -1) return mismatch(`${where}.parts/${index}`, 'an object', value.parts[index]);
  }
  return undefined;
}

/** A v1.0 part's content members (proto `oneof content`): exactly one is set. */
const V1_PART_CONTENT = ['text', 'raw', 'url', 'data'] as const;
/** Members of every v1.0 part beside its content. */
const V1_PART: Shape = { metadata: 'object?', filename: 'string?', mediaType: 'string?' };
/** A v0.3 part by its `kind`: the members each kind needs (v0.3 `data` is an object). */
const V03_PARTS: Readonly<Record<string, Shape>> = {
  text: { text: 'string', metadata: 'object?' },
  data: { data: 'object', metadata: 'object?' },
  file: {
    file: { bytes: 'string?', uri: 'string?', mimeType: 'string?', name: 'string?' },
    metadata: 'object?',
  },
};

/**
 * The first part (each already an object) whose members do not fit its version's `Part`: the
 * SDK converts them without looking (a number `text` becomes a string, a number `raw` throws), so
 * they are checked here, each type named. v1.0: exactly one of `text`, `raw` (base64), `url`,
 * `data` (any JSON value); v0.3: `kind` `text` (a string `text`), `data` (an object `data`) or
 * `file` (`file` with `bytes` or `uri`).
 */
function checkParts(parts: readonly unknown[], legacy: boolean): Mismatch | undefined {
  for (const [index, part] of parts.entries()) {
    const at = `params.message.parts/${index}`;
    const record = part as Record<string, unknown>;
    if (legacy) {
      const kind = record.kind;
      const shape = typeof kind === 'string' ? V03_PARTS[kind] : undefined;
      if (!shape) return mismatch(`${at}.kind`, '"text", "data" or "file"', kind);
      const problem = checkShape(record, shape, at);
      if (problem) return problem;
      const file = record.file as Record<string, unknown> | undefined;
      if (file && (file.bytes == null) === (file.uri == null))
        return { at: `${at}.file`, message: `${at}.file must have one of bytes or uri.` };
      continue;
    }
    const set = V1_PART_CONTENT.filter(
      (name) => record[name] !== undefined && record[name] !== null,
    );
    if (set.length !== 1) {
      const got = set.length === 0 ? 'none' : set.join(' and ');
      return {
        at,
        message: `${at} must have exactly one of text, raw, url or data (got ${got}).`,
      };
    }
    const content = set[0]!;
    if (content !== 'data' && typeof record[content] !== 'string')
      return mismatch(`${at}.${content}`, 'a string', record[content]);
    const problem = checkShape(record, V1_PART, at);
    if (problem) return problem;
  }
  return undefined;
}

function fits(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'non-empty string':
      return typeof value === 'string' && value.trim() !== '';
    case 'integer':
      return (
        Number.isSafeInteger(value) || (typeof value === 'string' && /^-?\d{1,15}$/.test(value))
      );
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
  }
}

/** The proto field name of a JSON member name (`messageId` → `message_id`). */
const protoName = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

const article = (kind: Kind) => (/^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  return typeof value;
}
