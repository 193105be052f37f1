/**
 * For tests that make a component throw on purpose: keeps the expected error out of the output.
 * React logs a caught render error with `console.error`; React 18 in development also rethrows it
 * inside a synthetic event, which jsdom reports as "Error: Uncaught [...]" with a stack trace
 * unless the window's `error` event is cancelled (as a page's own handler would).
 */
import { onTestFinished, vi } from 'vitest';

/** Silences `console.error` and uncaught-error reports until the calling test ends. */
export function expectErrors(): ReturnType<typeof vi.spyOn> {
  const cancel = (event: ErrorEvent) => event.preventDefault();
  window.addEventListener('error', cancel);
  const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
  onTestFinished(() => {
    window.removeEventListener('error', cancel);
    spy.mockRestore();
  });
  return spy;
}
