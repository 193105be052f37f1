/**
 * A real `redis-server` for tests and local clusters (the Debian package; `scripts/test.sh`
 * installs it): started on a free port of 127.0.0.1, without persistence, and stopped (or
 * restarted on the same port) at will.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A running `redis-server`. */
export interface RedisServerProcess {
  readonly url: string;
  readonly port: number;
  /** Kills the server (SIGKILL: as a crash would). */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  restart(): Promise<void>;
}

/** Options of {@link startRedisServer}. */
export interface StartRedisServerOptions {
  /** Path of the `redis-server` binary. @default `$REDIS_SERVER_PATH`, else '/usr/bin/redis-server' */
  binary?: string;
  /** TCP port. @default a free one */
  port?: number;
}

/** A port that was free a moment ago. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function launch(binary: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)),
    );
  });
}

/**
 * Starts `redis-server` on 127.0.0.1 with nothing persisted (`--save '' --appendonly no`), on a
 * free port unless one is given (a few tries, in case another process took the free one).
 *
 * @throws Error when the binary is missing or the server exits before it is ready
 *
 * @example
 * ```ts
 * const redis = await startRedisServer();
 * const scaleOut = await createRedisScaleOut({ url: redis.url });
 * await redis.restart(); // empty again, same port
 * ```
 */
export async function startRedisServer(
  options: StartRedisServerOptions = {},
): Promise<RedisServerProcess> {
  const binary = options.binary ?? process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';
  let port = options.port ?? 0;
  let child: ChildProcess | undefined;
  for (let attempt = 0; !child; attempt++) {
    port = options.port ?? (await freePort());
    try {
      child = await launch(binary, port);
    } catch (error) {
      if (attempt >= 4 || options.port !== undefined) throw error;
    }
  }
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    async restart() {
      await stop();
      child = await launch(binary, port);
    },
  };
}
