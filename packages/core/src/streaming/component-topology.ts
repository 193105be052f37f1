/**
 * The components reachable from a surface's root, with the reference cycles that would make a
 * renderer recurse forever reported as errors (spec: the component tree is a tree).
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { componentReferences, type ReferenceFields } from './component-references.js';
import type { JsonObject } from './stream-types.js';

/**
 * Ids reachable from `rootId` through component references (referenced ids that have not
 * arrived are included; the caller intersects with what it has).
 *
 * @throws A2uiError `VALIDATION_FAILED` with `data.reason` `'self-reference'` when any component
 *   references itself, or `'cycle'` when a cycle is reachable from the root.
 */
export function reachableComponentIds(
  rootId: string,
  components: Iterable<JsonObject>,
  fields: ReferenceFields,
): Set<string> {
  const edges = new Map<string, string[]>();
  for (const component of components) {
    const id = component.id;
    if (typeof id !== 'string') continue;
    const targets = edges.get(id) ?? [];
    edges.set(id, targets);
    for (const reference of componentReferences(component, fields)) {
      if (reference.id === id) {
        throw new A2uiError(
          'VALIDATION_FAILED',
          `Self-reference detected: Component '${id}' references itself in field '${reference.field}'`,
          { data: { reason: 'self-reference', componentId: id } },
        );
      }
      targets.push(reference.id);
    }
  }
  const visited = new Set<string>();
  if (!edges.has(rootId)) return visited;
  // Iterative depth-first search: a hostile chain must not overflow the call stack.
  const onPath = new Set<string>();
  const stack: { id: string; next: number }[] = [{ id: rootId, next: 0 }];
  visited.add(rootId);
  onPath.add(rootId);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as { id: string; next: number };
    const target = edges.get(frame.id)?.[frame.next];
    if (target === undefined) {
      onPath.delete(frame.id);
      stack.pop();
      continue;
    }
    frame.next++;
    if (onPath.has(target)) {
      throw new A2uiError(
        'VALIDATION_FAILED',
        `Circular reference detected involving component '${target}'`,
        { data: { reason: 'cycle', componentId: target } },
      );
    }
    if (visited.has(target)) continue;
    visited.add(target);
    onPath.add(target);
    stack.push({ id: target, next: 0 });
  }
  return visited;
}
