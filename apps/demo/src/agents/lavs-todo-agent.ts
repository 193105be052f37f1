/**
 * The LAVS example (issue 23): the spec's todo-manager service (`lavs.json`, a script handler for
 * `listTodos`/`addTodo`, a function handler for `toggleTodo`/`deleteTodo`/`todoUpdates`, its data
 * in `data/todos.json`) run by `@a2ui-ts/lavs` in this process, shown as a live A2UI surface by
 * `createLavsViewAgent`, and offered to the LLM agent as tools — one service, a conversational
 * and a visual interface over it, each seeing what the other does.
 */
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lavsServiceTools } from '@a2ui-ts/agent-llm';
import type { A2uiAgent } from '@a2ui-ts/core';
import {
  createLavsRuntime,
  createLavsViewAgent,
  createLocalLavsClient,
  type LavsAuditLogger,
  type LavsRuntime,
  parseManifest,
} from '@a2ui-ts/lavs';
import type { ToolSet } from 'ai';
import type { DemoLogger } from './demo-agent.js';

/** The todo-manager of `@a2ui-ts/lavs` (the service its README and tests use). */
const TODO_MANAGER = fileURLToPath(
  new URL('../../../../packages/lavs/examples/todo-manager/', import.meta.url),
);

/** Options of {@link startDemoTodoService}. */
export interface DemoTodoServiceOptions {
  /**
   * The service's directory, where its data file lives; the todo-manager is copied there.
   * @default a new directory under the OS's temporary directory (each start begins empty)
   */
  dir?: string;
  logger?: DemoLogger;
}

/** The running service and its two interfaces. */
export interface DemoTodoService {
  readonly dir: string;
  readonly runtime: LavsRuntime;
  /** The live A2UI surface of the todos (`lavs-todo-manager`). */
  readonly agent: A2uiAgent;
  /** `lavs_listTodos`, `lavs_addTodo`, `lavs_toggleTodo`, `lavs_deleteTodo` for the LLM agent. */
  readonly tools: ToolSet;
  /** Stops running handlers and ends every subscription. */
  close(): Promise<void>;
}

/**
 * Copies the todo-manager into `dir` and runs it (synchronously: the demo's agents are built
 * before the server listens; the handlers run on each call).
 *
 * @throws `LavsError` `INVALID_MANIFEST` when the copied `lavs.json` is invalid
 */
export function startDemoTodoService(options: DemoTodoServiceOptions = {}): DemoTodoService {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'a2ui-demo-todos-'));
  cpSync(TODO_MANAGER, dir, { recursive: true, force: false, errorOnExist: false });
  const log = options.logger ?? (() => {});
  const audit: LavsAuditLogger = (entry) => log('lavs.call', { ...entry });
  const manifest = JSON.parse(readFileSync(join(dir, 'lavs.json'), 'utf8'));
  const runtime = createLavsRuntime(parseManifest(manifest, { baseDir: dir }), { logger: audit });
  const client = createLocalLavsClient(runtime);
  return {
    dir,
    runtime,
    agent: createLavsViewAgent({ client, manifest: runtime.manifest }),
    tools: lavsServiceTools(runtime),
    async close() {
      client.close();
      await runtime.close();
    },
  };
}
