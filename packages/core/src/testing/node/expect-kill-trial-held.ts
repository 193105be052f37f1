/**
 * The verdict every binding's kill trial must meet, in one place: nothing acknowledged lost,
 * nothing applied twice, every action after the restart applied once, the client reset onto the
 * restarted server, and the kill made only after `killAfterAcks` acknowledgements.
 */
import { expect } from 'vitest';
import type { KillTrialFigures } from './kill-trial.js';

/** Asserts that one {@link runKillTrial} held (a vitest assertion; tests only). */
export function expectKillTrialHeld(figures: KillTrialFigures, killAfterAcks: number): void {
  expect(figures).toMatchObject({
    lost: 0,
    doubled: 0,
    afterRestart: 20,
    afterRestartApplied: 20,
    reset: true,
  });
  expect(figures.acked).toBeGreaterThanOrEqual(killAfterAcks);
}
