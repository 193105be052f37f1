/**
 * Test services on disk: the todo-manager copied into a temporary directory (so each test has
 * its own data file), or a service made of a manifest and files, served on 127.0.0.1 port 0.
 */

import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { HttpListener } from '@a2ui-ts/core/host';
import {
  createLavsRuntime,
  type LavsAuditEntry,
  type LavsRuntime,
  type LavsRuntimeOptions,
  loadManifest,
  type ServeLavsOptions,
  serveLavs,
} from '../src/index.js';

const TODO_MANAGER = new URL('../examples/todo-manager/', import.meta.url).pathname;

/** A copy of the todo-manager service in a new temporary directory. */
export async function copyTodoManager(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lavs-todo-'));
  await cp(TODO_MANAGER, dir, { recursive: true });
  return dir;
}

/** A service directory holding `lavs.json` (`manifest`) and `files` (path → text). */
export async function makeService(
  manifest: unknown,
  files: Record<string, string> = {},
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lavs-svc-'));
  await writeFile(join(dir, 'lavs.json'), JSON.stringify(manifest, null, 2));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

/** A served service and what its audit log received. */
export interface StartedService {
  readonly dir: string;
  readonly runtime: LavsRuntime;
  readonly server: HttpListener<Server>;
  readonly url: string;
  readonly audit: LavsAuditEntry[];
  /** POSTs one JSON-RPC request; @returns the HTTP status and the parsed body */
  rpc(
    method: string,
    params?: unknown,
    id?: number | string,
  ): Promise<{ status: number; body: any }>;
  /** `lavs/call` shorthand: the body. */
  call(endpoint: string, input?: unknown): Promise<any>;
  close(): Promise<void>;
}

/** Loads `dir/lavs.json` and serves it on 127.0.0.1 port 0. */
export async function startService(
  dir: string,
  options: LavsRuntimeOptions & ServeLavsOptions = {},
): Promise<StartedService> {
  const audit: LavsAuditEntry[] = [];
  const runtime = createLavsRuntime(await loadManifest(join(dir, 'lavs.json')), {
    logger: (entry) => audit.push(entry),
    ...options,
  });
  const server = await serveLavs(runtime, options);
  const rpc = async (method: string, params?: unknown, id: number | string = 1) => {
    const response = await fetch(`${server.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
    return { status: response.status, body: await response.json() };
  };
  return {
    dir,
    runtime,
    server,
    url: server.url,
    audit,
    rpc,
    call: async (endpoint, input) => (await rpc('lavs/call', { endpoint, input })).body,
    close: () => server.close(),
  };
}
