/**
 * The default task store: the SDK's `InMemoryTaskStore` (tasks scoped by tenant and user, copied
 * in and out, `ListTasks` filtered, sorted and paged the same way), with a bound on how many
 * tasks it keeps. The SDK's own store never forgets a task, so every A2A message that starts a
 * task — one per new context, and any client may open contexts as fast as it likes — would cost
 * the server memory for good; here the least recently updated task is forgotten once `maxTasks`
 * are kept (a `GetTask` for it is then `TaskNotFound`, as after a restart). A live session's
 * task is updated on every turn, so the tasks forgotten first are those of sessions long gone.
 * Tasks are bounded in bytes too (their JSON, UTF-8), per principal and in total: a task holds
 * the messages of its history, and a client may send up to `maxRequestBytes` in each.
 */
import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { resolveUserScope, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import { utf8ByteLength } from '@a2ui-ts/core';

/** Options of {@link createMemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /**
   * Most tasks kept, in tasks, across all tenants and users; past it the least recently saved
   * task is forgotten. `Infinity` keeps all (the SDK's own behaviour). What the store holds is
   * about `maxTasks × (maxTaskHistory + 1)` messages: `createA2aServer` keeps `maxTaskHistory`
   * messages of each task's history, plus its status message.
   * @default 10000
   * @throws TypeError when it is not a number of at least 1
   */
  maxTasks?: number;
  /**
   * Most bytes of tasks kept (their JSON, UTF-8), across all tenants and users; past it the least
   * recently saved tasks are forgotten. The task being saved is always kept, so the store may
   * hold one task more than this. `Infinity` bounds nothing.
   * @default 67108864 (64 MiB)
   * @throws TypeError when it is not a number of at least 1
   */
  maxBytes?: number;
  /**
   * Most bytes of tasks kept for one principal (one tenant and user, the scope of the store):
   * past it that principal's least recently saved tasks are forgotten first, so one principal
   * cannot push another's tasks out. Unauthenticated callers all share one scope.
   * @default 16777216 (16 MiB)
   * @throws TypeError when it is not a number of at least 1
   */
  maxBytesPerPrincipal?: number;
  /** The user a call's tasks belong to (stores are scoped by it). @default the SDK's `resolveUserScope` */
  ownerOf?: (context: ServerCallContext) => string;
}

/** Defaults of {@link MemoryTaskStoreOptions}. */
export const MEMORY_TASK_STORE_DEFAULTS = {
  maxTasks: 10_000,
  maxBytes: 67_108_864,
  maxBytesPerPrincipal: 16_777_216,
} as const;

/** `ListTasks`' page size when the request names none (the SDK's). */
const DEFAULT_PAGE_SIZE = 50;

/** A task store with its current size, for monitoring and tests. */
export interface MemoryTaskStore extends TaskStore {
  /** Tasks kept now. */
  readonly size: number;
  /** Bytes of the tasks kept now (their JSON, UTF-8), all principals together. */
  readonly bytes: number;
  /** Forgets task `taskId` of the caller (when its session ended); unknown ids are ignored. */
  delete(taskId: string, context: ServerCallContext): Promise<void>;
}

/** One kept task, with its size. */
interface Entry {
  readonly task: Task;
  readonly bytes: number;
}

/** One scope's tasks, and their bytes. */
interface Scope {
  readonly tasks: Map<string, Entry>;
  bytes: number;
}

/**
 * Creates a bounded in-memory task store.
 *
 * @param options - `maxTasks` (default 10000), `maxBytes` (64 MiB), `maxBytesPerPrincipal`
 * (16 MiB), `ownerOf`
 * @returns a `TaskStore` for `createA2aServer({ taskStore })` (it is the default), with `size`,
 * `bytes` and `delete`
 * @throws TypeError when a bound is below 1 or not a number
 *
 * @example
 * ```ts
 * const server = createA2aServer({ agent, taskStore: createMemoryTaskStore({ maxTasks: 1_000 }) });
 * ```
 */
export function createMemoryTaskStore(options: MemoryTaskStoreOptions = {}): MemoryTaskStore {
  const defaults = MEMORY_TASK_STORE_DEFAULTS;
  const maxTasks = atLeastOne('maxTasks', options.maxTasks ?? defaults.maxTasks);
  const maxBytes = atLeastOne('maxBytes', options.maxBytes ?? defaults.maxBytes);
  const maxScopeBytes = atLeastOne(
    'maxBytesPerPrincipal',
    options.maxBytesPerPrincipal ?? defaults.maxBytesPerPrincipal,
  );
  const ownerOf = options.ownerOf ?? resolveUserScope;
  const scopes = new Map<string, Scope>();
  /** Every task as `[scope, id]`, least recently saved first (a Map keeps insertion order). */
  const order = new Map<string, readonly [string, string]>();
  let totalBytes = 0;
  const scopeOf = (context: ServerCallContext) =>
    JSON.stringify([context.tenant ?? '', ownerOf(context)]);
  const keyOf = (scope: string, id: string) => JSON.stringify([scope, id]);

  const forget = (scopeKey: string, id: string) => {
    const scope = scopes.get(scopeKey);
    const entry = scope?.tasks.get(id);
    order.delete(keyOf(scopeKey, id));
    if (!scope || !entry) return;
    scope.tasks.delete(id);
    scope.bytes -= entry.bytes;
    totalBytes -= entry.bytes;
    if (scope.tasks.size === 0) scopes.delete(scopeKey);
  };
  /** Forgets the least recently saved tasks (of `scopeKey` first, then of all) but `keep`. */
  const trim = (scopeKey: string, keep: string) => {
    const scope = scopes.get(scopeKey)!;
    // A Map may lose entries while it is iterated: each is visited once.
    for (const id of scope.tasks.keys()) {
      if (scope.bytes <= maxScopeBytes) break;
      if (id !== keep) forget(scopeKey, id);
    }
    for (const [key, [oldestScope, oldestId]] of order) {
      if (order.size <= maxTasks && totalBytes <= maxBytes) break;
      if (key !== keyOf(scopeKey, keep)) forget(oldestScope, oldestId);
    }
  };

  return {
    get size() {
      return order.size;
    },
    get bytes() {
      return totalBytes;
    },
    async load(taskId, context) {
      const entry = scopes.get(scopeOf(context))?.tasks.get(taskId);
      return entry ? structuredClone(entry.task) : undefined;
    },
    async save(task, context) {
      const scopeKey = scopeOf(context);
      forget(scopeKey, task.id);
      let scope = scopes.get(scopeKey);
      if (!scope) {
        scope = { tasks: new Map(), bytes: 0 };
        scopes.set(scopeKey, scope);
      }
      const bytes = utf8ByteLength(JSON.stringify(task));
      // Re-inserted, so each scope's Map too is least recently saved first.
      scope.tasks.set(task.id, { task: structuredClone(task), bytes });
      scope.bytes += bytes;
      totalBytes += bytes;
      order.set(keyOf(scopeKey, task.id), [scopeKey, task.id]);
      trim(scopeKey, task.id);
    },
    async delete(taskId, context) {
      forget(scopeOf(context), taskId);
    },
    async list(params: ListTasksRequest, context): Promise<ListTasksResponse> {
      const entries = scopes.get(scopeOf(context))?.tasks.values() ?? [];
      return listTasks(
        [...entries].map((entry) => entry.task),
        params,
      );
    },
  };
}

/** `value` floored, checked to be at least 1 (`Infinity` passes). */
function atLeastOne(name: string, value: number): number {
  const floored = Math.floor(value);
  if (!(floored >= 1)) throw new TypeError(`${name} must be at least 1 (got ${value}).`);
  return floored;
}

/** `ListTasks` over `tasks` as the SDK's `InMemoryTaskStore` answers it. */
function listTasks(all: Task[], params: ListTasksRequest): ListTasksResponse {
  const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
  let tasks = all;
  if (params.contextId) tasks = tasks.filter((task) => task.contextId === params.contextId);
  if (params.status !== undefined && params.status !== 0)
    tasks = tasks.filter((task) => task.status?.state === params.status);
  if (params.statusTimestampAfter) {
    const after = new Date(params.statusTimestampAfter).getTime();
    tasks = tasks.filter(
      (task) => task.status?.timestamp && new Date(task.status.timestamp).getTime() > after,
    );
  }
  const timestampOf = (task: Task) => task.status?.timestamp || '';
  tasks.sort((a, b) => timestampOf(b).localeCompare(timestampOf(a)) || b.id.localeCompare(a.id));
  const totalSize = tasks.length;
  if (params.pageToken) {
    const cursor = decodePageToken(params.pageToken);
    const index = tasks.findIndex(
      (task) => timestampOf(task) === cursor.timestamp && task.id === cursor.id,
    );
    tasks = index === -1 ? [] : tasks.slice(index + 1);
  }
  const page = tasks.slice(0, pageSize);
  const last = page.at(-1);
  return {
    tasks: page.map((task) => {
      const copy = structuredClone(task);
      if (!params.includeArtifacts) copy.artifacts = [];
      return copy;
    }),
    nextPageToken:
      last && tasks.length > page.length ? encodePageToken(timestampOf(last), last.id) : '',
    pageSize,
    totalSize,
  };
}

function encodePageToken(timestamp: string, id: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(`${timestamp}|${id}`)));
}

function decodePageToken(token: string): { timestamp: string; id: string } {
  let text: string;
  try {
    text = new TextDecoder().decode(Uint8Array.from(atob(token), (char) => char.charCodeAt(0)));
  } catch {
    throw new RequestMalformedError('Token is not a valid base64-encoded cursor.');
  }
  const [timestamp, ...id] = text.split('|');
  if (id.length === 0) throw new RequestMalformedError('Invalid page token format.');
  return { timestamp: timestamp!, id: id.join('|') };
}
