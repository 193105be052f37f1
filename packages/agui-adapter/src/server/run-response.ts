/**
 * What the AG-UI endpoint answers with: a run's event stream, or an HTTP refusal before it starts
 * (`docs/errors.md`).
 */
import { A2uiError, type ValidationIssue } from '@a2ui-ts/core';
import { toHttpError } from '@a2ui-ts/core/host';
import type { Context } from 'hono';
import type { RunStream } from './run-stream.js';

/** Response headers of a run (digest `ag-ui.md` §3.8). */
const STREAM_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-cache, no-transform',
  // Reverse proxies (nginx) must not buffer the stream.
  'X-Accel-Buffering': 'no',
  // Streams at once on Node (the adapter otherwise probes the body for a Content-Length first).
  'Transfer-Encoding': 'chunked',
};

/** The refusal of invalid client metadata, pointing into the body (`/forwardedProps/…`). */
export function metadataRefusal(issues: readonly ValidationIssue[]): A2uiError {
  const issue = issues[0]!;
  return new A2uiError('VALIDATION_FAILED', issue.message, {
    path: `/forwardedProps${issue.path.replace(/^\/metadata/, '')}`,
    data: { issues: [...issues] },
  });
}

/** The response of a run: its event stream. */
export function streamResponse(stream: RunStream): Response {
  return new Response(stream.body, {
    status: 200,
    headers: { ...STREAM_HEADERS, 'Content-Type': stream.contentType },
  });
}

/** `error` as the HTTP refusal `{"error": {code, message, …}}` with its status. */
export function httpError(c: Context, error: unknown): Response {
  const refusal = toHttpError(error);
  return c.json(refusal.body, refusal.status as 400, refusal.headers);
}
