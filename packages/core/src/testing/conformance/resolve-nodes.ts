/**
 * Every component instance of a surface with its properties resolved, as the reference harness
 * builds them to compare against a case's `components` and `validationResult`: each component at
 * the root scope under its id, and each instance a template expands under `<id>_<index>`, its
 * descendants under the same suffix.
 */

import type { CheckResult } from '../../binding/checks.js';
import type { ChildReference } from '../../binding/child-list.js';
import { ComponentBinding } from '../../binding/component-binding.js';
import { DataContext } from '../../binding/data-context.js';
import type { A2uiClient } from '../../client/a2ui-client.js';

/** One resolved component instance. */
export interface ResolvedNode {
  readonly id: string;
  readonly type: string;
  /** Properties resolved in the instance's scope; child lists as component ids. */
  readonly props: Readonly<Record<string, unknown>>;
  readonly validation: CheckResult;
}

/** Template instances resolved at most (a runaway template must not hang the run). */
const MAX_NODES = 10_000;

/**
 * Resolves every component of `surfaceId`.
 *
 * @param client - the client holding the surface
 * @param surfaceId - the surface
 * @returns nodes by instance key (`id`, or `id_index` inside templates)
 */
export function resolveSurfaceNodes(
  client: A2uiClient,
  surfaceId: string,
): Map<string, ResolvedNode> {
  const surface = client.processor.getSurface(surfaceId);
  const nodes = new Map<string, ResolvedNode>();
  if (!surface) return nodes;
  const host = client.getBindingHost(surfaceId);
  const visit = (id: string, scope: string, key: string): void => {
    if (nodes.has(key) || nodes.size >= MAX_NODES) return;
    const record = surface.components.get(id);
    if (!record) return;
    const binding = new ComponentBinding(record, new DataContext(host, scope));
    const snapshot = binding.getSnapshot();
    const props: Record<string, unknown> = {};
    const children: ChildReference[] = [];
    for (const [name, value] of Object.entries(snapshot.props)) {
      if (isChildReferenceList(value)) {
        children.push(...value);
        props[name] = value.map((child) => child.id);
      } else props[name] = value;
    }
    nodes.set(key, { id, type: record.type, props, validation: snapshot.validation });
    const suffix = /\/(\d+)$/.exec(scope)?.[1];
    for (const child of children) {
      const index = /\/(\d+)$/.exec(child.scope)?.[1];
      if (child.scope !== scope && index !== undefined)
        visit(child.id, child.scope, `${child.id}_${index}`);
      else if (suffix !== undefined) visit(child.id, scope, `${child.id}_${suffix}`);
    }
  };
  for (const record of surface.components.values()) visit(record.id, '/', record.id);
  return nodes;
}

function isChildReferenceList(value: unknown): value is ChildReference[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (item) =>
        typeof item === 'object' &&
        item !== null &&
        'id' in item &&
        'scope' in item &&
        'key' in item,
    )
  );
}
