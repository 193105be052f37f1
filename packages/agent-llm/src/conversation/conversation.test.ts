import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { ConversationHistory, estimateTokens } from './conversation-history.js';
import { TurnRateLimiter } from './turn-rate-limiter.js';

const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const call = (id: string): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'lookup', input: {} }],
});
const result = (id: string): ModelMessage => ({
  role: 'tool',
  content: [
    {
      type: 'tool-result',
      toolCallId: id,
      toolName: 'lookup',
      output: { type: 'text', value: 'ok' },
    },
  ],
});

describe('ConversationHistory', () => {
  it('drops whole exchanges from the start when a bound is exceeded', () => {
    const history = new ConversationHistory({ maxMessages: 5 });
    history.append(user('a'), call('1'), result('1'));
    history.append(user('b'), call('2'), result('2'));
    expect(history.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(history.messages[0]).toEqual(user('b'));
  });

  it('never drops the exchange in progress, however long', () => {
    const history = new ConversationHistory({ maxMessages: 2 });
    history.append(user('a'), call('1'), result('1'), call('2'), result('2'));
    expect(history.messages).toHaveLength(5);
    history.append(user('b'));
    expect(history.messages).toEqual([user('b')]);
  });

  it('bounds estimated tokens and keeps its total exact', () => {
    const history = new ConversationHistory({ maxTokens: 10, countTokens: () => 3 });
    history.append(user('a'), call('1'));
    history.append(user('b'), call('2'));
    expect(history.tokens).toBe(6);
    history.append(user('c'));
    expect(history.tokens).toBe(9);
    history.append(call('3'));
    expect(history.tokens).toBe(6);
    expect(history.messages[0]).toEqual(user('c'));
    history.clear();
    expect([history.messages.length, history.tokens]).toEqual([0, 0]);
  });

  it('estimates a quarter token per character of JSON', () => {
    expect(estimateTokens(user('x'.repeat(398)))).toBe(100);
  });
});

describe('TurnRateLimiter', () => {
  it('allows maxTurns per sliding window and says when the next one may run', () => {
    let now = 1000;
    const limiter = new TurnRateLimiter({ maxTurns: 2, windowMs: 10_000 }, () => now);
    expect(limiter.take()).toBe(0);
    now = 4000;
    expect(limiter.take()).toBe(0);
    now = 5000;
    expect(limiter.take()).toBe(6000);
    now = 11_000;
    expect(limiter.take()).toBe(0);
    expect(limiter.take()).toBe(3000);
  });
});
