/**
 * Containers mount their children as the surface's {@link MountScheduler} allows (issue 25:
 * 5,000 template items froze the page for 6 s in one commit, 100 × 100 nested ones longer). A
 * container keeps the children it already mounted and adds what the scheduler grants; one with
 * children left registers after its commit and is woken for the next slice.
 */
import { useEffect, useLayoutEffect, useMemo, useReducer, useRef } from 'react';
import type { SurfaceRuntime } from '../provider/renderer-context.js';
import type { A2uiNode } from '../registry/a2ui-component.js';

/** What the implementation's `renderChildren` calls of one render asked for and were given. */
interface RenderedChildren {
  /** Longest child list asked for. */
  wanted: number;
  /** Children mounted, the count the next render starts from. */
  kept: number;
  /** The surface's `maxRenderedComponents` was used up: the rest stays out, nobody waits. */
  cut: boolean;
  /**
   * Children shown per list asked for: Strict Mode calls the implementation twice per render,
   * and the second call must show what the first was granted, not ask again.
   */
  readonly shown: Map<readonly unknown[], number>;
}

const bump = (tick: number): number => tick + 1;

/** After the commit, before the browser paints; on the server (no effects run) React 18 warns. */
const useCommitEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * `node` with a `renderChildren` that renders the children mounted so far plus those the
 * surface's scheduler grants. Children keep their keys, so growing the slice mounts only the new
 * ones. A grant stops at the instances the surface has left (`maxRenderedComponents`); when they
 * run out, the first child left out is rendered anyway, as the one "not rendered" note its
 * over-budget instance shows.
 */
export function useProgressiveChildren(
  node: A2uiNode | null,
  runtime: SurfaceRuntime,
): A2uiNode | null {
  const { mounts, budget, options } = runtime;
  const [tick, wake] = useReducer(bump, 0);
  const mounted = useRef(0);
  // This render's calls; `null` until the implementation calls `renderChildren` (it may not, when
  // it is memoised and bails out, and then the last commit's state stands).
  const rendered = useRef<RenderedChildren | null>(null);
  const committed = useRef<RenderedChildren | null>(null);
  rendered.current = null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a wake must reach memoised implementations as a new node.
  const windowed = useMemo(() => {
    if (!node) return null;
    return {
      ...node,
      renderChildren(children: unknown) {
        if (!Array.isArray(children)) return node.renderChildren(children);
        rendered.current ??= { wanted: 0, kept: 0, cut: false, shown: new Map() };
        const pass = rendered.current;
        const total = children.length;
        pass.wanted = Math.max(pass.wanted, total);
        const kept = Math.min(mounted.current, total);
        let shown = pass.shown.get(children) ?? total;
        if (total > kept && !pass.shown.has(children)) {
          // Granting past the instances left would render every extra child as a note of its own.
          const room = Math.max(0, options.maxRenderedComponents - budget.used);
          const admitted = kept + (room > 0 ? mounts.grant(Math.min(total - kept, room)) : 0);
          shown = admitted;
          if (admitted < total && admitted - kept === room) {
            pass.cut = true;
            shown = admitted + 1;
          }
          pass.kept = Math.max(pass.kept, admitted);
        } else if (!pass.shown.has(children)) {
          pass.kept = Math.max(pass.kept, shown);
        }
        pass.shown.set(children, shown);
        return node.renderChildren(shown === total ? children : children.slice(0, shown));
      },
    };
  }, [node, tick, budget, options, mounts]);
  useCommitEffect(() => {
    const pass = rendered.current ?? committed.current;
    if (pass === null) return;
    committed.current = pass;
    mounted.current = pass.kept;
    mounts.committed();
    if (pass.kept < pass.wanted && !pass.cut) return mounts.wait(wake);
  });
  return windowed;
}
