import { describe, expect, it } from 'vitest';
import { ErrorReporter } from './error-reporter.js';

const error = (message: string) => ({ code: 'EXPRESSION_ERROR', surfaceId: 's', message });

describe('ErrorReporter', () => {
  it('admits each distinct error once', () => {
    const reporter = new ErrorReporter();
    expect(reporter.admit(error('a'))).toBe(true);
    expect(reporter.admit(error('a'))).toBe(false);
    expect(reporter.admit(error('b'))).toBe(true);
    reporter.clear();
    expect(reporter.admit(error('a'))).toBe(true);
  });

  it('admits at most maxErrors per window, then again once the window has passed', () => {
    let now = 0;
    const reporter = new ErrorReporter({ maxErrors: 2, intervalMs: 1000 }, () => now);
    expect([
      reporter.admit(error('1')),
      reporter.admit(error('2')),
      reporter.admit(error('3')),
    ]).toEqual([true, true, false]);
    expect(reporter.dropped).toBe(1);
    now = 1000;
    expect(reporter.admit(error('4'))).toBe(true);
  });

  it('admits nothing when disabled', () => {
    expect(new ErrorReporter({ enabled: false }).admit(error('x'))).toBe(false);
  });
});
