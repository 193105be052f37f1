/**
 * Reads v1.0's drafted inline collection shape (`V1_0_INLINE_TEMPLATE_KEYS`) into the schema's
 * ChildList template: the inline template and its `components` become ordinary components of the
 * surface, and the collection's `template` becomes `{componentId, path: items}`, so that binding,
 * `@index` and renderers see one kind of template only.
 */
import { isRecord } from '../protocol/guards.js';
import type { ComponentInstance } from '../protocol/messages.js';
import { V1_0_INLINE_TEMPLATE_KEYS } from './v1-0-spelling.js';

/** Suffix of the id given to an inline template that names none (`<collection id>__template`). */
export const INLINE_TEMPLATE_ID_SUFFIX = '__template';

const { items: ITEMS, template: TEMPLATE, components: COMPONENTS } = V1_0_INLINE_TEMPLATE_KEYS;

/** True for a component object (`{component: "<type>", …}`), as an inline template is. */
function isInlineComponent(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && typeof value.component === 'string';
}

/** Whether `component` carries an inline template that {@link hoistInlineTemplates} hoists. */
function isTemplateHolder(component: ComponentInstance): boolean {
  return isInlineComponent(component[TEMPLATE]) && typeof component[ITEMS] === 'string';
}

/**
 * Hoists every inline template of `components` (recursively: a template may hold collections).
 *
 * @param components - components as received (already with bare reserved keys)
 * @returns the same components, each collection's template as `{componentId, path}` and each
 *   inline template and descendant appended after its collection; the input is not modified,
 *   and is itself returned when it holds no inline template (no copy for every message)
 * @example
 * ```ts
 * hoistInlineTemplates([{ id: 'list', component: 'Collection', items: '/tasks',
 *   template: { id: 'row', component: 'Text', text: { path: '' } } }]);
 * // [{ id: 'list', …, template: { componentId: 'row', path: '/tasks' } },
 * //  { id: 'row', component: 'Text', text: { path: '' } }]
 * ```
 */
export function hoistInlineTemplates(
  components: readonly ComponentInstance[],
): readonly ComponentInstance[] {
  // Most messages carry no inline template: then there is nothing to hoist (an indexed loop, no
  // callback: this runs for every v1.0 components message).
  let holds = false;
  for (let index = 0; index < components.length && !holds; index++)
    holds = isTemplateHolder(components[index]!);
  if (!holds) return components;
  const out: ComponentInstance[] = [];
  const pending: ComponentInstance[] = [...components];
  // Iterative so that a deeply nested template cannot exhaust the stack.
  while (pending.length > 0) {
    const component = pending.shift()!;
    const template = component[TEMPLATE];
    const path = component[ITEMS];
    if (!isInlineComponent(template) || typeof path !== 'string') {
      out.push(component);
      continue;
    }
    const { [COMPONENTS]: descendants, ...body } = template;
    const componentId =
      typeof body.id === 'string' ? body.id : `${component.id}${INLINE_TEMPLATE_ID_SUFFIX}`;
    out.push({ ...component, [TEMPLATE]: { componentId, path } });
    const hoisted = [
      { ...body, id: componentId } as ComponentInstance,
      ...(Array.isArray(descendants) ? descendants.filter(isInlineComponent) : []),
    ] as ComponentInstance[];
    pending.unshift(...hoisted);
  }
  return out;
}
