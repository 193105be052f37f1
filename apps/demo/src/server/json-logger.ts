/**
 * One JSON object per line on stdout: easy to read, easy to `jq`.
 */
import type { DemoLogger } from '../agents/demo-agent.js';

/**
 * A logger writing `{"time", "level", "event", ...fields}` lines. Events ending in `.error` are
 * logged at level `error`.
 *
 * @param write - where lines go @default `process.stdout.write`
 */
export function createJsonLogger(
  write: (line: string) => void = (line) => process.stdout.write(line),
): DemoLogger {
  return (event, fields = {}) => {
    const level = event.endsWith('.error') ? 'error' : 'info';
    write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`);
  };
}
