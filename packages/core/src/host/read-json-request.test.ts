import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { toHttpError } from './http-errors.js';
import { JSON_REQUEST_FAILURES, readJsonRequest } from './read-json-request.js';

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request('http://x/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
const json = { 'content-type': 'application/json; charset=utf-8' };

/** A body that sends `first` and then breaks, as a client that goes away mid-body. */
function broken(first: string) {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
      controller.error(new Error('socket hang up at 10.0.0.7'));
    },
  });
}

describe('readJsonRequest', () => {
  it('reads the principal, the payload, its text and its size', async () => {
    const read = await readJsonRequest(post('{"a":"é"}', json), {
      maxBytes: 100,
      host: { authenticate: async () => ({ ok: true, principal: 'ada' }) },
    });
    expect(read).toEqual({
      ok: true,
      principal: 'ada',
      payload: { a: 'é' },
      text: '{"a":"é"}',
      bytes: 10,
    });
  });

  it('answers each failure with its row of the table, and no parser or runtime text', async () => {
    const limits = { maxBytes: 8, timeoutMs: 0 };
    const cases = [
      ['unsupported-media-type', post('{}')],
      ['unsupported-media-type', post('{}', { 'content-type': 'text/plain' })],
      ['too-large', post('"123456789"', json)],
      ['aborted', post(broken('{"a":'), json)],
      ['invalid-utf8', post(new Uint8Array([0x22, 0xff, 0x22]), json)],
      ['empty-body', post(' \n', json)],
      ['invalid-json', post('{"a":', json)],
    ] as const;
    for (const [failure, request] of cases) {
      const read = await readJsonRequest(request, limits);
      const row = JSON_REQUEST_FAILURES[failure];
      expect.soft(read.ok ? undefined : read.refusal, failure).toMatchObject({
        failure,
        status: row.status,
        code: row.code,
        message: row.message({ maxBytes: 8, timeoutMs: 0 }),
      });
      const body = JSON.stringify(read.ok ? {} : toHttpError(read.refusal).body);
      expect(body).not.toMatch(/hang up|Unexpected|position|SyntaxError/);
    }
  });

  it('checks the media type before authenticating, and authenticates before reading', async () => {
    let authenticated = 0;
    const authenticate = async () => {
      authenticated++;
      return { ok: false, error: new A2uiError('FORBIDDEN', 'Not yours.') } as const;
    };
    const wrongType = await readJsonRequest(post('{}'), { maxBytes: 8, host: { authenticate } });
    expect([wrongType.ok, authenticated]).toEqual([false, 0]);
    const refused = await readJsonRequest(post('{"a":', json), {
      maxBytes: 8,
      host: { authenticate },
    });
    expect(refused.ok ? undefined : refused.refusal).toMatchObject({
      failure: 'auth',
      status: 403,
      code: 'FORBIDDEN',
      error: { code: 'FORBIDDEN' },
    });
  });

  it('gives an A2uiError with the status for rows an A2uiError code names', async () => {
    const read = await readJsonRequest(post('"123456789"', json), { maxBytes: 8 });
    expect(read.ok ? undefined : read.refusal.error).toMatchObject({
      code: 'MESSAGE_TOO_LARGE',
      data: { httpStatus: 413, maxRequestBytes: 8 },
    });
    expect(toHttpError(read.ok ? undefined : read.refusal).body).toEqual({
      error: {
        code: 'MESSAGE_TOO_LARGE',
        message: 'The body is larger than 8 bytes.',
        maxRequestBytes: 8,
      },
    });
  });
});
