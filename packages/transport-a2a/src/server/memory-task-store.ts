/**
 * The default task store: the SDK's `InMemoryTaskStore` (tasks scoped by tenant and user, copied
 * in and out, `ListTasks` filtered, sorted and paged the same way), with a bound on how many
 * tasks it keeps. The SDK's own store never forgets a task, so every A2A message that starts a
 * task — one per new context, and any client may open contexts as fast as it likes — would cost
 * the server memory for good; here the least recently updated task is forgotten once `maxTasks`
 * are kept (a `GetTask` for it is then `TaskNotFound`, as after a restart). A live session's
 * task is updated on every turn, so the tasks forgotten first are those of sessions long gone.
 */
import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { resolveUserScope, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';

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
  /** The user a call's tasks belong to (stores are scoped by it). @default the SDK's `resolveUserScope` */
  ownerOf?: (context: ServerCallContext) => string;
}

/** Defaults of {@link MemoryTaskStoreOptions}. */
export const MEMORY_TASK_STORE_DEFAULTS = { maxTasks: 10_000 } as const;

/** `ListTasks`' page size when the request names none (the SDK's). */
const DEFAULT_PAGE_SIZE = 50;

/** A task store with its current size, for monitoring and tests. */
export interface MemoryTaskStore extends TaskStore {
  /** Tasks kept now. */
  readonly size: number;
}

/**
 * Creates a bounded in-memory task store.
 *
 * @param options - `maxTasks` (default 10000), `ownerOf`
 * @returns a `TaskStore` for `createA2aServer({ taskStore })` (it is the default), with `size`
 * @throws TypeError when `maxTasks` is below 1 or not a number
 *
 * @example
 * ```ts
 * const server = createA2aServer({ agent, taskStore: createMemoryTaskStore({ maxTasks: 1_000 }) });
 * ```
 */
export function createMemoryTaskStore(options: MemoryTaskStoreOptions = {}): MemoryTaskStore {
  const maxTasks = Math.floor(options.maxTasks ?? MEMORY_TASK_STORE_DEFAULTS.maxTasks);
  if (!(maxTasks >= 1))
    throw new TypeError(`maxTasks must be at least 1 (got ${options.maxTasks}).`);
  const ownerOf = options.ownerOf ?? resolveUserScope;
  /** Scope → its tasks by id. */
  const scopes = new Map<string, Map<string, Task>>();
  /** Every task as `[scope, id]`, least recently saved first (a Map keeps insertion order). */
  const order = new Map<string, readonly [string, string]>();
  const scopeOf = (context: ServerCallContext) =>
    JSON.stringify([context.tenant ?? '', ownerOf(context)]);
  const keyOf = (scope: string, id: string) => JSON.stringify([scope, id]);

  return {
    get size() {
      return order.size;
    },
    async load(taskId, context) {
      const task = scopes.get(scopeOf(context))?.get(taskId);
      return task ? structuredClone(task) : undefined;
    },
    async save(task, context) {
      const scope = scopeOf(context);
      let tasks = scopes.get(scope);
      if (!tasks) {
        tasks = new Map();
        scopes.set(scope, tasks);
      }
      tasks.set(task.id, structuredClone(task));
      const key = keyOf(scope, task.id);
      order.delete(key);
      order.set(key, [scope, task.id]);
      while (order.size > maxTasks) {
        const [oldestKey, [oldestScope, oldestId]] = order.entries().next().value!;
        order.delete(oldestKey);
        const bucket = scopes.get(oldestScope);
        bucket?.delete(oldestId);
        if (bucket?.size === 0) scopes.delete(oldestScope);
      }
    },
    async list(params: ListTasksRequest, context): Promise<ListTasksResponse> {
      return listTasks([...(scopes.get(scopeOf(context))?.values() ?? [])], params);
    },
  };
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
