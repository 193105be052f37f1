/**
 * Counts which components rendered in each React commit, without wrapping them, the way React
 * DevTools does: a `__REACT_DEVTOOLS_GLOBAL_HOOK__` receives every committed fiber root, and a
 * walk descends only into subtrees React actually processed.
 */

interface Fiber {
  type: unknown;
  flags: number;
  child: Fiber | null;
  sibling: Fiber | null;
  alternate: Fiber | null;
  memoizedProps: unknown;
}

/** React's `PerformedWork` fiber flag: the component function ran in this render. */
const PERFORMED_WORK = 1;

type CommitListener = (root: { current: Fiber }) => void;
let listener: CommitListener | undefined;

/** Installs the hook. Call before `react-dom` is imported. */
export function installCommitHook(): void {
  (globalThis as Record<string, unknown>).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => {},
    onScheduleFiberRoot: () => {},
    onCommitFiberRoot: (_id: number, root: { current: Fiber }) => listener?.(root),
    onPostCommitFiberRoot: () => {},
    onCommitFiberUnmount: () => {},
  };
}

/** What one counting session saw. */
export interface RenderCounter {
  commits: number;
  /** Keys of the target components that rendered, in render order. */
  rendered: string[];
  reset(): void;
  stop(): void;
}

/**
 * Starts counting commits and the renders of fibers whose `type` is in `targets`, named by
 * `keyOf(props)`.
 */
export function countRenders(
  targets: ReadonlySet<unknown>,
  keyOf: (props: Record<string, unknown>) => string,
): RenderCounter {
  const counter: RenderCounter = {
    commits: 0,
    rendered: [],
    reset() {
      counter.commits = 0;
      counter.rendered = [];
    },
    stop() {
      listener = undefined;
    },
  };
  const walk = (fiber: Fiber): void => {
    if (
      targets.has(fiber.type) &&
      (fiber.alternate === null || (fiber.flags & PERFORMED_WORK) !== 0)
    ) {
      counter.rendered.push(keyOf(fiber.memoizedProps as Record<string, unknown>));
    }
    // Children identical to the previous tree's: React bailed out of the whole subtree.
    if (fiber.alternate !== null && fiber.child === fiber.alternate.child) return;
    for (let child = fiber.child; child !== null; child = child.sibling) walk(child);
  };
  listener = (root) => {
    counter.commits++;
    walk(root.current);
  };
  return counter;
}
