/**
 * Long child lists mount a slice at a time (issue 25: 5,000 template items froze the page for
 * 6 s in one commit). A container first mounts {@link CHILDREN_PER_COMMIT} children; after each
 * commit that left some out, the slice grows by as many in a transition started from a new task,
 * so the browser handles input between slices, React may interrupt the render for it, and each
 * commit mounts a bounded number of components.
 */
import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import type { A2uiNode } from '../registry/a2ui-component.js';

/**
 * Most children a container mounts in the first commit, and how many each later commit adds.
 * Large enough that ordinary lists (≤ 100 children) render in one commit as before; small enough
 * that a commit mounts about 30 ms of Text items on an idle 2-core machine (`bench:large-list`;
 * on one loaded ten times over, some still take 110–190 ms).
 */
export const CHILDREN_PER_COMMIT = 100;

/**
 * `node` with a `renderChildren` that renders the first `shown` children of a longer list, and
 * the growth of `shown` after each commit that left some out. Children already mounted keep their
 * keys, so growing the slice only mounts the new ones.
 */
export function useProgressiveChildren(node: A2uiNode | null): A2uiNode | null {
  const [shown, setShown] = useState(CHILDREN_PER_COMMIT);
  // The longest list this component's implementation asked for in its latest render.
  const longest = useRef(0);
  longest.current = 0;
  const windowed = useMemo(() => {
    if (!node) return null;
    return {
      ...node,
      renderChildren(children: unknown) {
        if (!Array.isArray(children) || children.length <= shown)
          return node.renderChildren(children);
        longest.current = Math.max(longest.current, children.length);
        return node.renderChildren(children.slice(0, shown));
      },
    };
  }, [node, shown]);
  useEffect(() => {
    if (longest.current <= shown) return;
    // A new task, so input queued during the last commit runs first; a transition, so React
    // renders the next slice in interruptible steps and commits it only when nothing is waiting.
    const timer = setTimeout(() => {
      startTransition(() => setShown((current) => current + CHILDREN_PER_COMMIT));
    }, 0);
    return () => clearTimeout(timer);
  });
  return windowed;
}
