/**
 * Resolves once `condition()` holds, re-checked on every turn of the event loop (after I/O) —
 * not a sleep: no fixed delay, the test runner's timeout is the only clock.
 */
export async function eventually(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
