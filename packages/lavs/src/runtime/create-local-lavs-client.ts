/**
 * A runtime in this process behind the client API (spec §7.2), so that what takes a client — the
 * A2UI view agent, an app's own code — works the same with a service served elsewhere
 * (`createLavsClient`) and one run here, without a server or a socket between them.
 */
import type { LavsClient } from '../client/create-lavs-client.js';
import { LavsError } from '../errors/lavs-error.js';
import type { LavsRuntime } from './lavs-runtime.js';

/**
 * The client of `runtime`: `call` is `runtime.call`, `subscribe` is `runtime.watch` (the current
 * output first, then every change, whoever made it), `getManifest` its manifest, `close` ends
 * every subscription made through it (not the runtime).
 *
 * @example
 * ```ts
 * const runtime = createLavsRuntime(await loadManifest('./lavs.json'));
 * const agent = createLavsViewAgent({ client: createLocalLavsClient(runtime) });
 * ```
 */
export function createLocalLavsClient(runtime: LavsRuntime): LavsClient {
  const stops = new Set<() => void>();
  return {
    call: <T>(endpoint: string, input?: unknown, options: { signal?: AbortSignal } = {}) =>
      runtime.call(endpoint, input, options) as Promise<T>,
    subscribe(endpoint, callback, options = {}) {
      let stop: () => void;
      try {
        stop = runtime.watch(endpoint, options.input, callback);
      } catch (error) {
        options.onError?.(
          LavsError.isInstance(error)
            ? error
            : new LavsError('INTERNAL_ERROR', 'The subscription failed.', { cause: error }),
        );
        return () => {};
      }
      stops.add(stop);
      return () => {
        stops.delete(stop);
        stop();
      };
    },
    getManifest: async () => runtime.manifest,
    close() {
      for (const stop of stops) stop();
      stops.clear();
    },
  };
}
