/** Runs a {@link LuaScript} by its SHA-1, loading it when Redis does not know it. */
import type { LuaScript } from './lua-scripts.js';

/** The one client method the stores use: node-redis' `sendCommand`. */
export interface RedisCommander {
  sendCommand<T = unknown>(args: readonly string[], options?: { timeout?: number }): Promise<T>;
}

const isNoScript = (error: unknown) =>
  error instanceof Error && error.message.startsWith('NOSCRIPT');

/**
 * `EVALSHA` the script; on `NOSCRIPT` (first use, or Redis restarted) `EVAL` it, which also
 * caches it for next time.
 */
export async function runScript<T>(
  client: RedisCommander,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<T> {
  const rest = [String(keys.length), ...keys, ...args.map(String)];
  try {
    return await client.sendCommand<T>(['EVALSHA', script.sha, ...rest]);
  } catch (error) {
    if (!isNoScript(error)) throw error;
    return client.sendCommand<T>(['EVAL', script.source, ...rest]);
  }
}
