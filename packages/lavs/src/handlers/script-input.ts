/**
 * How a script handler's input reaches the process (spec §4.3 `input`): `args` fills
 * `{{path.to.value}}` templates in the static arguments, `env` flattens the input into
 * upper-case variables (nested keys joined by `_`), `stdin` writes it as JSON.
 */

/** Replaces `{{a.b}}` in each argument with the input's value at `a.b` (JSON for non-strings). */
export function fillArgs(args: readonly string[], input: unknown): string[] {
  return args.map((arg) =>
    arg.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_, path: string) => {
      let value: unknown = input;
      for (const key of path.split('.')) {
        value =
          typeof value === 'object' && value !== null && Object.hasOwn(value, key)
            ? (value as Record<string, unknown>)[key]
            : undefined;
      }
      if (value === undefined) return '';
      return typeof value === 'string' ? value : JSON.stringify(value);
    }),
  );
}

/** `{ note: 'x', due: { day: 1 } }` → `{ NOTE: 'x', DUE_DAY: '1' }`. */
export function inputToEnv(input: unknown, prefix = ''): Record<string, string> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return prefix === ''
      ? {}
      : { [prefix]: typeof input === 'string' ? input : JSON.stringify(input) };
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) {
    const name = `${prefix === '' ? '' : `${prefix}_`}${key.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}`;
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      Object.assign(env, inputToEnv(value, name));
    else env[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return env;
}
