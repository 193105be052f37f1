import { describe, expect, it } from 'vitest';
import { ErrorReporter } from './error-reporter.js';

describe('ErrorReporter', () => {
  it('admits at most maxErrors per window, then again once the window has passed', () => {
    let now = 0;
    const reporter = new ErrorReporter({ maxErrors: 2, intervalMs: 1000 }, () => now);
    expect([reporter.admit(), reporter.admit(), reporter.admit()]).toEqual([true, true, false]);
    expect(reporter.dropped).toBe(1);
    now = 1000;
    expect(reporter.admit()).toBe(true);
  });

  it('admits nothing when disabled', () => {
    expect(new ErrorReporter({ enabled: false }).admit()).toBe(false);
  });
});
