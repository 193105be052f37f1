/**
 * A local stand-in for a model provider (node:http on 127.0.0.1, port 0): it answers each request
 * with the next scripted reply in that provider's streaming wire format, so the real provider
 * package runs end to end and only the far end is local. Replies can also fail the way real
 * endpoints do: an HTTP error, a cut connection, garbage, a stream that never ends.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { listenHttpServer } from '@a2ui-ts/core/host';
import {
  encodeReply,
  formatSseEvent,
  type LlmWireFormat,
  type MockReplyContent,
} from './wire-formats.js';

/** A streamed reply, with optional faults. */
export interface MockStreamReply extends MockReplyContent {
  /** Wait before sending event number `afterEvents` until `until` settles (to observe partial UI). */
  pause?: { afterEvents: number; until: PromiseLike<unknown> };
  /** Destroy the connection after this many events, as a dropped link does. */
  cutAfterEvents?: number;
  /** Keep the response open after the last event, until the client leaves. @default false */
  hang?: boolean;
}

/** An HTTP error answer (401, 429, 503…), with a JSON body. */
export interface MockErrorReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Raw bytes with a 200 (garbage, a wrong content type). */
export interface MockRawReply {
  raw: string;
  /** @default 'text/event-stream' */
  contentType?: string;
}

/** One scripted answer. */
export type MockLlmReply = MockStreamReply | MockErrorReply | MockRawReply;

/** A request the mock received. */
export interface RecordedLlmRequest {
  readonly method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read provider-specific request shapes
  readonly body: any;
  /** Resolves when the client closed the connection before the reply ended (a cancelled call). */
  readonly clientClosed: Promise<void>;
}

/** A running mock provider. */
export interface MockLlmServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /**
   * The base URL to give the provider package: `<origin>/v1` (OpenAI, Anthropic),
   * `<origin>/v1beta` (Gemini).
   */
  readonly baseUrl: string;
  readonly requests: readonly RecordedLlmRequest[];
  /** Queues more replies. */
  reply(...replies: MockLlmReply[]): void;
  /** Resolves with the `index`-th request (0-based) once it has arrived. */
  request(index: number): Promise<RecordedLlmRequest>;
  close(): Promise<void>;
}

/** Options of {@link startMockLlmServer}. */
export interface MockLlmServerOptions {
  wire: LlmWireFormat;
  /** Answers, in order; a request past them gets a 500. @default [] */
  replies?: readonly MockLlmReply[];
  /** Model name in the streamed chunks. @default 'mock-model' */
  model?: string;
}

/**
 * Starts a mock provider on 127.0.0.1, port 0.
 *
 * @example
 * ```ts
 * const server = await startMockLlmServer({
 *   wire: 'anthropic-messages',
 *   replies: [{ toolCalls: [{ name: 'render_a2ui', input: { messages } }] }],
 * });
 * const model = createAnthropic({ baseURL: server.baseUrl, apiKey: 'test' })('claude-test');
 * ```
 */
export async function startMockLlmServer(options: MockLlmServerOptions): Promise<MockLlmServer> {
  const replies: MockLlmReply[] = [...(options.replies ?? [])];
  const requests: RecordedLlmRequest[] = [];
  const waiters: Array<{ index: number; resolve: (request: RecordedLlmRequest) => void }> = [];
  const server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => {
      let closed!: () => void;
      const clientClosed = new Promise<void>((resolve) => {
        closed = resolve;
      });
      response.on('close', () => {
        if (!response.writableFinished) closed();
      });
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = text;
      }
      const recorded: RecordedLlmRequest = {
        method: request.method ?? 'GET',
        url: request.url ?? '',
        headers: request.headers,
        body,
        clientClosed,
      };
      requests.push(recorded);
      for (const waiter of waiters.filter((entry) => entry.index < requests.length)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(requests[waiter.index]!);
      }
      const reply = replies.shift() ?? {
        status: 500,
        body: { error: { message: 'The mock provider has no more scripted replies.' } },
      };
      void answer(response, reply, options);
    });
  });
  const listener = await listenHttpServer(server);
  const origin = listener.url;
  return {
    origin,
    baseUrl: `${origin}${options.wire === 'google-gemini' ? '/v1beta' : '/v1'}`,
    requests,
    reply: (...more) => {
      replies.push(...more);
    },
    request: (index) =>
      index < requests.length
        ? Promise.resolve(requests[index]!)
        : new Promise((resolve) => waiters.push({ index, resolve })),
    close: () => listener.close(),
  };
}

async function answer(
  response: ServerResponse,
  reply: MockLlmReply,
  options: MockLlmServerOptions,
): Promise<void> {
  if ('status' in reply) {
    response
      .writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers })
      .end(JSON.stringify(reply.body ?? { error: { message: `HTTP ${reply.status}` } }));
    return;
  }
  if ('raw' in reply) {
    response
      .writeHead(200, { 'Content-Type': reply.contentType ?? 'text/event-stream' })
      .end(reply.raw);
    return;
  }
  response.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
  });
  response.flushHeaders();
  const events = encodeReply(options.wire, reply, options.model);
  for (const [index, event] of events.entries()) {
    if (response.destroyed) return;
    if (reply.pause && index === reply.pause.afterEvents) await reply.pause.until;
    if (reply.cutAfterEvents !== undefined && index === reply.cutAfterEvents) {
      // Flush what was written, then close the socket mid-response (no chunked terminator):
      // the client reads the events so far, then a broken body.
      response.socket?.end();
      return;
    }
    response.write(formatSseEvent(event));
  }
  if (!reply.hang) response.end();
}
