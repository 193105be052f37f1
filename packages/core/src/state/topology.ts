/**
 * The component tree of a surface as a graph (spec §2.2 "the component tree", digest §5): every
 * component must be reachable from `root` through child references, exactly once on each path.
 * Finds the four ways a set of components fails that — a missing root, a circular reference
 * (direct, indirect or a component that is its own child), a dangling child reference, and an
 * orphaned component — so that strict processing can reject the message and a lenient renderer
 * can show a placeholder and report each problem once.
 */

import { childIds } from '../catalog/composition.js';
import { ROOT_COMPONENT_ID } from '../protocol/constants.js';
import type { ComponentInstance } from '../protocol/messages.js';
import { MessageFailure } from './message-failure.js';
import type { Surface } from './surface.js';

/** What is wrong with a component tree. */
export type TopologyProblemKind =
  | 'missing-root'
  | 'circular-reference'
  | 'dangling-reference'
  | 'orphaned-component';

/** One problem of a component tree. */
export interface TopologyProblem {
  readonly kind: TopologyProblemKind;
  /** The component the problem is about (`root` for a missing root). */
  readonly componentId: string;
  /** A sentence beginning with the official wording (`Missing root component`, …). */
  readonly message: string;
}

/** Options of {@link findTopologyProblems}. */
export interface FindTopologyProblemsOptions {
  /** The id of the tree's root. @default 'root' */
  rootId?: string;
}

/**
 * Every problem of the tree `components` forms, each once, in this order: a missing root, then
 * per component (in map order) its dangling references, then cycles, then orphans. Template
 * children (`{componentId, path}`) count as references. An empty surface has no problems.
 *
 * @param components - the surface's components by id (after the update under test)
 * @param options - see {@link FindTopologyProblemsOptions}
 * @returns the problems; empty for a well-formed tree
 */
export function findTopologyProblems(
  components: ReadonlyMap<string, Readonly<ComponentInstance>>,
  options: FindTopologyProblemsOptions = {},
): TopologyProblem[] {
  if (components.size === 0) return [];
  const rootId = options.rootId ?? ROOT_COMPONENT_ID;
  const problems: TopologyProblem[] = [];
  const children = new Map<string, string[]>();
  for (const [id, component] of components) children.set(id, childIds(component));
  if (!components.has(rootId)) {
    problems.push({
      kind: 'missing-root',
      componentId: rootId,
      message: `Missing root component: no component has the id "${rootId}", so nothing can be rendered.`,
    });
  }
  for (const [id, refs] of children) {
    for (const ref of new Set(refs)) {
      if (components.has(ref)) continue;
      problems.push({
        kind: 'dangling-reference',
        componentId: id,
        message: `Dangling reference: component "${id}" refers to child "${ref}", which does not exist.`,
      });
    }
  }
  problems.push(...findCycles(children));
  if (components.has(rootId)) problems.push(...findOrphans(children, rootId));
  return problems;
}

/** One problem per cycle, found by depth-first search from every component (so orphaned cycles too). */
function findCycles(children: ReadonlyMap<string, readonly string[]>): TopologyProblem[] {
  const problems: TopologyProblem[] = [];
  const done = new Set<string>();
  const onPath = new Map<string, number>();
  const path: string[] = [];
  // Iterative, so that a deep chain sent by an agent cannot overflow the stack.
  for (const start of children.keys()) {
    if (done.has(start)) continue;
    const stack: Array<{ id: string; next: number }> = [{ id: start, next: 0 }];
    onPath.set(start, 0);
    path.push(start);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const refs = children.get(frame.id) ?? [];
      if (frame.next < refs.length) {
        const ref = refs[frame.next++]!;
        if (!children.has(ref) || done.has(ref)) continue;
        const at = onPath.get(ref);
        if (at !== undefined) {
          problems.push(cycleProblem([...path.slice(at), ref]));
          continue;
        }
        onPath.set(ref, path.length);
        path.push(ref);
        stack.push({ id: ref, next: 0 });
      } else {
        stack.pop();
        path.pop();
        onPath.delete(frame.id);
        done.add(frame.id);
      }
    }
  }
  return problems;
}

function cycleProblem(cycle: readonly string[]): TopologyProblem {
  const [first] = cycle;
  const message =
    cycle.length === 2
      ? `Circular reference detected: component "${first}" lists itself as its own child (self-reference).`
      : `Circular reference detected: ${cycle.map((id) => `"${id}"`).join(' → ')}.`;
  return { kind: 'circular-reference', componentId: first!, message };
}

function findOrphans(
  children: ReadonlyMap<string, readonly string[]>,
  rootId: string,
): TopologyProblem[] {
  const reached = new Set([rootId]);
  const queue = [rootId];
  for (let index = 0; index < queue.length; index++) {
    for (const ref of children.get(queue[index]!) ?? []) {
      if (reached.has(ref) || !children.has(ref)) continue;
      reached.add(ref);
      queue.push(ref);
    }
  }
  const problems: TopologyProblem[] = [];
  for (const id of children.keys()) {
    if (reached.has(id)) continue;
    problems.push({
      kind: 'orphaned-component',
      componentId: id,
      message: `Orphaned component: "${id}" is not reachable from "${rootId}", so it is never rendered.`,
    });
  }
  return problems;
}

/**
 * The strict-mode hook of `updateComponents`: the surface's tree as it would be after `incoming`
 * is applied must have no problem, else the message is rejected with the first problem (the
 * surface keeps its previous components).
 *
 * @param surface - the surface the update is for
 * @param incoming - the update's components, already checked one by one
 * @param path - the pointer of the update's component list in the message
 * @throws MessageFailure `VALIDATION_FAILED` naming the first problem (and how many there are)
 */
export function rejectTopologyProblems(
  surface: Surface,
  incoming: readonly Readonly<ComponentInstance>[],
  path: string,
): void {
  const after = new Map<string, Readonly<ComponentInstance>>();
  for (const record of surface.components.values()) after.set(record.id, record.properties);
  for (const component of incoming) after.set(component.id, component);
  const problems = findTopologyProblems(after);
  if (problems.length === 0) return;
  const [first] = problems;
  const index = incoming.findIndex((component) => component.id === first!.componentId);
  const more =
    problems.length > 1 ? ` (${problems.length - 1} more problem(s) in this update.)` : '';
  throw MessageFailure.validation(
    surface.surfaceId,
    index === -1 ? path : `${path}/${index}`,
    `${first!.message}${more}`,
  );
}
