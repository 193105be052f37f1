/**
 * Test helper: a local stand-in for an OpenAI-compatible chat-completions endpoint (node:http on
 * 127.0.0.1, port 0) that streams scripted replies in the `stream: true` server-sent-events format.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RENDER_TOOL_NAME } from '../agents/llm/render-tool.js';

/** A running mock endpoint. */
export interface MockChatModel {
  /** e.g. `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** One scripted reply: SSE `data:` payloads in the streaming chat-completions format, or an HTTP error. */
export type Reply = { chunks: unknown[] } | { status: number; body: string };

/** What the mock received. */
export interface RecordedRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    stream: boolean;
    messages: Array<Record<string, unknown>>;
    tools: Array<{ function: { name: string; parameters: Record<string, unknown> } }>;
  };
}

/** A local stand-in for an OpenAI-compatible endpoint, answering with the scripted replies in order. */
export async function startMockChatModel(replies: Reply[]): Promise<MockChatModel> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      requests.push({ url: request.url ?? '', headers: request.headers, body: JSON.parse(text) });
      const reply = replies.shift() ?? {
        status: 500,
        body: '{"error":{"message":"no more scripted replies"}}',
      };
      if ('status' in reply) {
        response.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(reply.body);
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      for (const chunk of reply.chunks) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A tool call streamed the way real endpoints do it: id and name first, then the arguments in small pieces. */
export function toolCallReply(messages: unknown[], id = 'call_1'): Reply {
  const args = JSON.stringify({ messages });
  const pieces: string[] = [];
  for (let i = 0; i < args.length; i += 40) pieces.push(args.slice(i, i + 40));
  return {
    chunks: [
      {
        choices: [
          {
            index: 0,
            delta: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  index: 0,
                  id,
                  type: 'function',
                  function: { name: RENDER_TOOL_NAME, arguments: '' },
                },
              ],
            },
          },
        ],
      },
      ...pieces.map((piece) => ({
        choices: [
          { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] } },
        ],
      })),
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    ],
  };
}
