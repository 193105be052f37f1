/**
 * Fault injection for browser tests: drops an SSE link from the server side after a chosen number
 * of A2UI events, as a proxy or a flaky network would.
 */
import type { Hono } from 'hono';

/** Arms and reports drops. */
export interface SseFault {
  /** Installs the middleware; pass to the harness's `configure`. */
  install(app: Hono): void;
  /** The next `count` A2UI events (on any open stream) go through, then that stream is cut. */
  dropAfter(count: number): void;
  /** Streams cut so far. */
  readonly drops: number;
}

/** Creates an {@link SseFault} for event streams whose path ends in `/sse`. */
export function createSseFault(): SseFault {
  let remaining: number | undefined;
  let drops = 0;
  return {
    get drops() {
      return drops;
    },
    dropAfter(count) {
      remaining = count;
    },
    install(app) {
      app.use('*', async (c, next) => {
        await next();
        if (
          !c.req.path.endsWith('/sse') ||
          !c.res.body ||
          !c.res.headers.get('content-type')?.startsWith('text/event-stream')
        )
          return;
        const decoder = new TextDecoder();
        let carry = '';
        const cut = new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            controller.enqueue(chunk);
            if (remaining === undefined) return;
            // Count `id:` lines: one per A2UI event (control events carry none).
            const lines = (carry + decoder.decode(chunk, { stream: true })).split('\n');
            carry = lines.pop() ?? '';
            remaining -= lines.filter((line) => line.startsWith('id:')).length;
            if (remaining <= 0) {
              remaining = undefined;
              drops++;
              controller.terminate();
            }
          },
        });
        c.res = new Response(c.res.body.pipeThrough(cut), {
          status: c.res.status,
          headers: c.res.headers,
        });
      });
    },
  };
}
