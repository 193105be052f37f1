/**
 * The environment a process started for a service (a script handler, a stdio MCP server) gets
 * from the runtime's own: a few harmless variables, never its secrets.
 */

/** Variables of the runtime's own environment a started process sees. */
const INHERITED_ENV = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'] as const;

/** `PATH HOME USER LANG LC_ALL TZ TMPDIR` as the runtime has them (absent ones left out). */
export function inheritedEnvironment(): Record<string, string> {
  return Object.fromEntries(
    INHERITED_ENV.flatMap((name) => {
      const value = process.env[name];
      return value === undefined ? [] : [[name, value]];
    }),
  );
}
