/**
 * v1.0 system functions (`a2ui_protocol.md` "Functions", "The `@index` function";
 * `common_types.json#/$defs/IndexSystemFunction`): names starting with `@` are universal context
 * evaluations that no catalog defines, so the data context answers them itself instead of looking
 * them up in the surface catalog.
 */
import { A2uiError } from '../errors/a2ui-error.js';

/** The `@index` system function: the 0-based index of the template item being rendered. */
export const INDEX_FUNCTION = '@index';

/**
 * The spec's wording for `@index` outside a template (conformance `index_function.yaml`), kept
 * exact so tools matching on it work.
 */
export const INDEX_OUTSIDE_TEMPLATE_MESSAGE =
  '@index function can only be evaluated inside a collection template iteration scope.';

/** True for a reserved system function name (`@` prefix), which catalogs may not define. */
export function isSystemFunction(name: string): boolean {
  return name === INDEX_FUNCTION;
}

/**
 * Evaluates a system function.
 *
 * @param name - a name for which {@link isSystemFunction} is true
 * @param args - resolved args; `@index` reads `offset` (a number added to the index, default 0)
 * @param templateIndex - the index of the enclosing template item; `undefined` in the root scope
 * @returns `templateIndex + offset` for `@index`
 * @throws A2uiError `EXPRESSION_ERROR` outside a template (the spec: "MUST treat it as an error"),
 *   or when `offset` is not a finite number
 */
export function evaluateSystemFunction(
  name: string,
  args: Readonly<Record<string, unknown>>,
  templateIndex: number | undefined,
): number {
  if (name !== INDEX_FUNCTION)
    throw new A2uiError('EXPRESSION_ERROR', `Unknown system function: ${name}.`);
  if (templateIndex === undefined)
    throw new A2uiError('EXPRESSION_ERROR', INDEX_OUTSIDE_TEMPLATE_MESSAGE);
  const offset = args.offset ?? 0;
  if (typeof offset !== 'number' || !Number.isFinite(offset))
    throw new A2uiError('EXPRESSION_ERROR', '@index: "offset" must be a finite number.');
  return templateIndex + offset;
}
