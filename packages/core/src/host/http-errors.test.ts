import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { HttpRefusal, toHttpError } from './http-errors.js';

describe('HttpRefusal', () => {
  it('is answered as it is: its status, its headers, its code and message', () => {
    const refusal = new HttpRefusal(405, 'METHOD_NOT_ALLOWED', 'Use POST.', { Allow: 'POST' });
    expect(toHttpError(refusal)).toEqual({
      status: 405,
      headers: { Allow: 'POST' },
      body: { error: { code: 'METHOD_NOT_ALLOWED', message: 'Use POST.' } },
    });
    // The response's headers are a copy: adding to them leaves the refusal alone.
    toHttpError(refusal).headers['Cache-Control'] = 'no-store';
    expect(refusal.headers).toEqual({ Allow: 'POST' });
  });

  it('of() keeps a refusal, and makes one of anything else as toHttpError maps it', () => {
    const own = new HttpRefusal(415, 'UNSUPPORTED_MEDIA_TYPE', 'JSON only.');
    expect(HttpRefusal.of(own)).toBe(own);
    const busy = HttpRefusal.of(
      new A2uiError('LIMIT_EXCEEDED', 'Too many.', { data: { retryAfterMs: 1_500 } }),
    );
    expect(busy).toBeInstanceOf(HttpRefusal);
    expect([busy.status, busy.code, busy.message, busy.headers]).toEqual([
      503,
      'LIMIT_EXCEEDED',
      'Too many.',
      { 'Retry-After': '2' },
    ]);
    // A shutdown's refusal keeps its reason and its hint to the millisecond in the body.
    const shutdown = HttpRefusal.of(
      new A2uiError('CONNECTION_CLOSED', 'Shutting down.', {
        data: { httpStatus: 503, reason: 'server-closed', retryAfterMs: 250 },
      }),
    );
    expect(toHttpError(shutdown)).toEqual({
      status: 503,
      headers: { 'Retry-After': '1' },
      body: {
        error: {
          code: 'CONNECTION_CLOSED',
          message: 'Shutting down.',
          reason: 'server-closed',
          retryAfterMs: 250,
        },
      },
    });
    const hidden = HttpRefusal.of(new Error('secret detail'));
    expect([hidden.status, hidden.code, hidden.message]).toEqual([
      500,
      'INTERNAL_ERROR',
      'The server failed to handle the request.',
    ]);
  });
});
