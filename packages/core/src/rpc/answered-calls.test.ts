import { describe, expect, it } from 'vitest';
import { AnsweredCalls } from './answered-calls.js';
import type { FunctionResponse } from './function-call-messages.js';

const answer = (functionCallId: string, value: unknown = 'ok'): Promise<FunctionResponse> =>
  Promise.resolve({ functionCallId, value });

describe('AnsweredCalls', () => {
  it('tells a running call from an answered one, and keeps the first answer', async () => {
    const calls = new AnsweredCalls();
    let finish!: (response: FunctionResponse) => void;
    calls.remember('c1', new Promise((resolve) => (finish = resolve)));
    expect(calls.get('c1')?.answered).toBe(false);
    finish({ functionCallId: 'c1', value: 1 });
    await calls.get('c1')!.answer;
    expect(calls.get('c1')?.answered).toBe(true);
    expect(calls.get('c2')).toBeUndefined();
  });

  it('forgets the oldest answers beyond maxRememberedAnswers and maxRememberedAnswerBytes', async () => {
    const byCount = new AnsweredCalls({ maxRememberedAnswers: 2 });
    for (const id of ['a', 'b', 'c']) {
      byCount.remember(id, answer(id));
      await byCount.get(id)!.answer;
    }
    expect(['a', 'b', 'c'].map((id) => byCount.get(id) !== undefined)).toEqual([false, true, true]);
    const byBytes = new AnsweredCalls({ maxRememberedAnswerBytes: 500 });
    for (const id of ['a', 'b', 'c']) {
      byBytes.remember(id, answer(id, 'x'.repeat(300)));
      await byBytes.get(id)!.answer;
    }
    // One answer always stays, however large, so the latest retransmission is still answered once.
    expect(byBytes.size.count).toBe(1);
    expect(byBytes.get('c')).toBeDefined();
    expect(byBytes.size.bytes).toBeLessThanOrEqual(500);
  });

  it('keeps running calls beyond the bounds, and forgets an answer that rejected', async () => {
    const calls = new AnsweredCalls({ maxRememberedAnswers: 1 });
    calls.remember('running', new Promise(() => {}));
    calls.remember('done', answer('done'));
    await calls.get('done')!.answer;
    expect(calls.get('running')).toBeDefined();
    const failed = Promise.reject(new Error('x'));
    calls.remember('failed', failed);
    await failed.catch(() => {});
    expect(calls.get('failed')).toBeUndefined();
  });
});
