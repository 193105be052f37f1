/**
 * The stdio MCP servers of one runtime: each distinct `{ command, args, env, cwd }` is started
 * once (without a shell, through the SDK's `StdioClientTransport`) on its first call and reused
 * by every later call; a server that exits is started again on the next call. A call past its
 * time takes its server down with it (SIGTERM, SIGKILL `killGraceMs` later), as a script past its
 * time is: whatever hung it may hang the next call too. `close()` stops them all.
 */

import { isAbsolute, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LavsError } from '../errors/lavs-error.js';
import type { McpStdioServer } from '../manifest/manifest-types.js';
import { resolveInside } from '../permissions/inside-directory.js';
import type { HandlerDiagnostics } from './handler-run.js';
import { inheritedEnvironment } from './script-environment.js';

/** Most stderr kept per server for the log, in bytes (its end). */
const STDERR_TAIL_BYTES = 4_096;

/** One started server. */
interface Connection {
  readonly transport: StdioClientTransport;
  readonly client: Client;
  readonly ready: Promise<Client>;
  stderr: string;
}

/** Options of {@link McpStdioClients}. */
export interface McpStdioClientsOptions {
  /** The service directory: relative commands and `cwd` resolve against it. */
  readonly baseDir: string;
  /** SIGTERM → SIGKILL when a server is stopped, in milliseconds. */
  readonly killGraceMs: number;
}

/** The stdio MCP servers of one runtime. */
export class McpStdioClients {
  readonly #options: McpStdioClientsOptions;
  readonly #connections = new Map<string, Connection>();
  readonly #stopping = new Set<Promise<void>>();
  #closed = false;

  constructor(options: McpStdioClientsOptions) {
    this.#options = options;
  }

  /**
   * The connected client of `server`, started if it is not running.
   *
   * @throws `LavsError` `HANDLER_ERROR` (the server could not be started or initialised), or the
   *   SDK's error when `signal` aborted first
   */
  async client(
    server: McpStdioServer,
    signal: AbortSignal,
    diagnostics: HandlerDiagnostics,
  ): Promise<Client> {
    if (this.#closed) throw new LavsError('INTERNAL_ERROR', 'The service is closing');
    const key = this.#key(server);
    let connection = this.#connections.get(key);
    if (connection === undefined) {
      connection = this.#start(key, server, signal);
      this.#connections.set(key, connection);
    }
    try {
      return await connection.ready;
    } catch (error) {
      this.#stop(key, connection);
      if (connection.stderr !== '') diagnostics(connection.stderr);
      if (signal.aborted) throw error;
      throw new LavsError('HANDLER_ERROR', 'the mcp server could not be started', {
        cause: error,
      });
    }
  }

  /** What `server` said on stderr lately (for the audit log). */
  stderrOf(server: McpStdioServer): string {
    return this.#connections.get(this.#key(server))?.stderr ?? '';
  }

  /**
   * Stops `server`'s process: SIGTERM, SIGKILL `killGraceMs` later; the next call starts it.
   * With `used` (the client a failed call had), only if that is still the running one: a call
   * that fails late must not take down the fresh server another call has started meanwhile.
   */
  stop(server: McpStdioServer, used?: Client): void {
    const key = this.#key(server);
    const connection = this.#connections.get(key);
    if (connection === undefined || (used !== undefined && connection.client !== used)) return;
    this.#stop(key, connection);
  }

  #stop(key: string, connection: Connection): void {
    // Already replaced (stopped, or closed and started again): nothing of it is left to stop.
    if (this.#connections.get(key) !== connection) return;
    this.#connections.delete(key);
    const stopping = this.#kill(connection).finally(() => this.#stopping.delete(stopping));
    this.#stopping.add(stopping);
  }

  /** Stops every server and waits until each process is gone. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const connection of this.#connections.values()) {
      const stopping = this.#kill(connection);
      this.#stopping.add(stopping);
    }
    this.#connections.clear();
    await Promise.allSettled([...this.#stopping]);
  }

  #key(server: McpStdioServer): string {
    return JSON.stringify([server.command, server.args, server.env, server.cwd]);
  }

  #start(key: string, server: McpStdioServer, signal: AbortSignal): Connection {
    const { baseDir } = this.#options;
    // Relative paths were checked to stay inside the service when the manifest was loaded.
    const command =
      server.command.includes('/') && !isAbsolute(server.command)
        ? resolve(baseDir, server.command)
        : server.command;
    const transport = new StdioClientTransport({
      command,
      args: server.args ?? [],
      env: { ...inheritedEnvironment(), ...server.env, LAVS_SERVICE_DIR: baseDir },
      cwd: resolveInside(baseDir, server.cwd ?? '.') ?? baseDir,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'lavs-runtime', version: '1.0.0' });
    const connection: Connection = {
      transport,
      client,
      ready: client.connect(transport, { signal }).then(() => client),
      stderr: '',
    };
    transport.stderr?.on('data', (chunk: Buffer) => {
      connection.stderr = `${connection.stderr}${chunk.toString('utf8')}`.slice(-STDERR_TAIL_BYTES);
    });
    // A server that exits (crashed, or stopped) is started afresh by the next call.
    client.onclose = () => {
      if (this.#connections.get(key) === connection) this.#connections.delete(key);
    };
    connection.ready.catch(() => {});
    return connection;
  }

  async #kill(connection: Connection): Promise<void> {
    const pid = connection.transport.pid;
    const signal = (name: NodeJS.Signals) => {
      try {
        if (pid !== null) process.kill(pid, name);
      } catch {
        // ESRCH: already gone.
      }
    };
    signal('SIGTERM');
    const killTimer = setTimeout(() => signal('SIGKILL'), this.#options.killGraceMs);
    try {
      // Waits for the process to close (the SDK ends stdin, then signals it itself if it must).
      await connection.transport.close();
    } finally {
      clearTimeout(killTimer);
    }
  }
}
