import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { describeError } from '../errors/describe-error.js';
import { RECONNECT_DEFAULTS } from './backoff.js';
import { errorOfHttpStatus, isRetryableStatus } from './http-status.js';
import { createRequestIdSequence, LINK_DEFAULTS, resolveLinkOptions } from './link-options.js';
import { resolveHeaders } from './resolve-headers.js';
import { tryParseJson } from './try-parse-json.js';

describe('resolveLinkOptions', () => {
  it('fills in the defaults, and the binding’s own where it has them', () => {
    const kit = resolveLinkOptions({});
    expect(kit.reconnect).toEqual(RECONNECT_DEFAULTS);
    expect(kit.random).toBe(Math.random);
    expect(kit.outbox).toMatchObject({
      maxQueuedMessages: LINK_DEFAULTS.maxQueuedMessages,
      maxBatchLength: LINK_DEFAULTS.maxBatchLength,
      backoff: { ...RECONNECT_DEFAULTS, random: Math.random },
    });
    expect(kit.shell).toEqual({
      backoff: kit.backoff,
      stableAfterMs: RECONNECT_DEFAULTS.stableAfterMs,
      wake: undefined,
      signal: undefined,
    });
    const own = resolveLinkOptions({}, { maxQueuedMessages: 5, maxBatchLength: 2 });
    expect(own.outbox).toMatchObject({ maxQueuedMessages: 5, maxBatchLength: 2 });
  });

  it('passes every option on: reconnect, random, limits, ids, wake and signal', () => {
    const random = () => 0.5;
    const wake = () => () => {};
    const signal = new AbortController().signal;
    const createRequestId = () => 'fixed';
    const kit = resolveLinkOptions(
      {
        reconnect: { initialDelayMs: 100, maxDelayMs: 400, stableAfterMs: 50 },
        random,
        maxQueuedMessages: 3,
        maxBatchLength: 1,
        createRequestId,
        wake,
        signal,
      },
      { maxQueuedMessages: 7 },
    );
    expect(kit.reconnect).toMatchObject({
      initialDelayMs: 100,
      maxDelayMs: 400,
      stableAfterMs: 50,
    });
    expect(kit.retry).toMatchObject({ initialDelayMs: 100, random });
    expect(kit.createRequestId).toBe(createRequestId);
    expect(kit.outbox).toMatchObject({ maxQueuedMessages: 3, maxBatchLength: 1 });
    expect(kit.outbox.createId).toBe(createRequestId);
    expect(kit.shell).toMatchObject({ stableAfterMs: 50, wake, signal });
    // random() = 0.5: the first delay is three quarters of initialDelayMs.
    expect(kit.backoff.fail()).toBe(75);
  });
});

describe('createRequestIdSequence', () => {
  it('counts up behind a prefix of its own', () => {
    const first = createRequestIdSequence();
    const second = createRequestIdSequence();
    const [a, b] = [first(), first()];
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}-1$/);
    expect(b).toBe(`${a.slice(0, -2)}-2`);
    expect(second().slice(0, 22)).not.toBe(a.slice(0, 22));
  });
});

describe('HTTP statuses', () => {
  it('retries 5xx, 408 and 429, and nothing else', () => {
    expect([500, 502, 503, 408, 429].map(isRetryableStatus)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect([400, 401, 403, 404, 413, 200].map(isRetryableStatus)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('names a refusal UNAUTHORIZED, FORBIDDEN or TRANSPORT_ERROR, with the status', () => {
    const errors = [401, 403, 404].map((status) => errorOfHttpStatus(status, `HTTP ${status}`));
    expect(errors.every((error) => A2uiError.isInstance(error))).toBe(true);
    expect(errors.map((error) => [error.code, error.message, error.data])).toEqual([
      ['UNAUTHORIZED', 'HTTP 401', { httpStatus: 401 }],
      ['FORBIDDEN', 'HTTP 403', { httpStatus: 403 }],
      ['TRANSPORT_ERROR', 'HTTP 404', { httpStatus: 404 }],
    ]);
  });
});

describe('resolveHeaders', () => {
  it('takes a value or asks the function each time, into fresh Headers', async () => {
    expect(await resolveHeaders(undefined)).toEqual(new Headers());
    const fixed = { authorization: 'Bearer a' };
    const once = await resolveHeaders(fixed);
    once.set('content-type', 'application/json');
    expect((await resolveHeaders(fixed)).get('content-type')).toBeNull();
    let token = 0;
    const refreshed = async () => ({ authorization: `Bearer ${++token}` });
    expect((await resolveHeaders(refreshed)).get('authorization')).toBe('Bearer 1');
    expect((await resolveHeaders(refreshed)).get('authorization')).toBe('Bearer 2');
  });
});

describe('tryParseJson and describeError', () => {
  it('parses JSON, and gives undefined for anything else', () => {
    expect(tryParseJson<{ a: number }>('{"a":1}')).toEqual({ a: 1 });
    expect(tryParseJson('<html>')).toBeUndefined();
    expect(tryParseJson('')).toBeUndefined();
  });

  it('says what failed, with the cause', () => {
    expect(describeError(new Error('fetch failed', { cause: new Error('ECONNREFUSED') }))).toBe(
      'fetch failed (ECONNREFUSED)',
    );
    expect(describeError(new Error('plain'))).toBe('plain');
    expect(describeError('a string')).toBe('a string');
  });
});
