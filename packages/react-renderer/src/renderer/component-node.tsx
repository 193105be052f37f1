/**
 * One component reference in the tree (digest §5.2–5.3): subscribes to its own record only,
 * shows a placeholder until it arrives and a fallback when nothing can render it, and binds its
 * properties in its data scope.
 */
import {
  type BindingSnapshot,
  type Catalog,
  type ChildReference,
  ComponentBinding,
  type ComponentRecord,
  type CompositionViolation,
  checkPlacement,
  compositionRulesOf,
  DataContext,
  isDataBinding,
  isRecord,
  SURFACE_CONTAINER_TYPE,
} from '@a2ui-ts/core';
import {
  Component,
  type ErrorInfo,
  memo,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
} from 'react';
import {
  type RenderBudget,
  ScopeContext,
  SurfaceContext,
  type SurfaceRuntime,
} from '../provider/renderer-context.js';
import type { A2uiNode } from '../registry/a2ui-component.js';
import { isBuiltin } from '../registry/builtin-components.js';
import { useProgressiveChildren } from './progressive-children.js';
import { UnknownComponent } from './unknown-component.js';

/**
 * Deepest component nesting rendered, a backstop: a reference cycle (`a` → `b` → `a`, same data
 * scope), which incremental updates can create, already stops at its first repetition. The
 * agent-side validator caps logical depth at 50 (digest §5.2).
 */
export const MAX_COMPONENT_DEPTH = 64;

const noop = (): void => {};

/**
 * One component placement on the path from `root` to a node: what cycle detection walks. Stable
 * per mounted component, so memoised children are not re-rendered when their parent updates.
 */
export interface ComponentPath {
  readonly id: string;
  /** Component type, once its record is known: what composition constraints check. */
  readonly type?: string;
  /** The catalog that type resolved in (v1.0: the component's own `catalogId`, else the surface's). */
  readonly catalog?: Catalog;
  /** Absolute data scope the component renders in. */
  readonly scope: string;
  /** Nesting depth from `root` (0). */
  readonly depth: number;
  readonly parent: ComponentPath | null;
}

/** Props of {@link ComponentNode}. */
export interface ComponentNodeProps {
  /** Component id to render. */
  readonly id: string;
  /** Absolute data scope it renders in. */
  readonly scope: string;
  /**
   * Index of the template item it renders in, read by v1.0 `@index`: its own for a template
   * instance, its parent's for a static child; `undefined` outside any template.
   */
  readonly templateIndex?: number | undefined;
  /** The component rendering this one; `null` for `root`. */
  readonly parent: ComponentPath | null;
}

/** True when component `id` in `scope` is already one of its own ancestors: a reference cycle. */
function isOwnAncestor(parent: ComponentPath | null, id: string, scope: string): boolean {
  for (let ancestor = parent; ancestor !== null; ancestor = ancestor.parent) {
    if (ancestor.id === id && ancestor.scope === scope) return true;
  }
  return false;
}

/** Drops claims of renders that never committed: after a commit, no render is in progress. */
function sweepAbandonedClaims(budget: RenderBudget): void {
  if (budget.sweepQueued || budget.pending.size === 0) return;
  budget.sweepQueued = true;
  queueMicrotask(() => {
    budget.sweepQueued = false;
    budget.used -= budget.pending.size;
    budget.pending.clear();
  });
}

/**
 * Claims one of the surface's `maxRenderedComponents` slots for this instance while it is
 * mounted; false when none is left. Claimed while rendering (an exploding tree must stop before
 * it is ever committed), once per instance — a re-render costs a comparison — confirmed when
 * committed and released on unmount. Keyed by the props object, so Strict Mode's double render
 * counts once; claims of renders React discards are swept after the next commit.
 */
function useRenderBudget(runtime: SurfaceRuntime, props: object, wanted: boolean): boolean {
  const { budget } = runtime;
  const claim = useRef<object | null>(null);
  if (!wanted) {
    claim.current = null;
  } else if (claim.current === null) {
    if (budget.pending.has(props)) {
      claim.current = props;
    } else if (budget.used < runtime.options.maxRenderedComponents) {
      budget.used += 1;
      budget.pending.add(props);
      claim.current = props;
    }
  }
  const admitted = claim.current !== null;
  useEffect(() => {
    if (!admitted) return;
    const token = claim.current;
    // Committed: the claim stops being pending. Not pending (swept, or Strict Mode mounting the
    // instance again, or one element rendered twice): count it now.
    if (token === null || !budget.pending.delete(token)) budget.used += 1;
    sweepAbandonedClaims(budget);
    return () => {
      budget.used -= 1;
    };
  }, [budget, admitted]);
  return admitted;
}

/** What one mounted component renders from; a new object whenever any part changes. */
interface NodeView {
  readonly record: ComponentRecord | undefined;
  readonly binding: ComponentBinding | null;
  readonly snapshot: BindingSnapshot | null;
  readonly node: A2uiNode | null;
}

const EMPTY_VIEW: NodeView = { record: undefined, binding: null, snapshot: null, node: null };

/**
 * One external store per mounted component: its record in the surface and, once the record
 * exists, the binding of its properties. One subscription for React (instead of one for the
 * record and one for the binding), so mounting a component costs a single store and effect.
 */
class NodeStore {
  readonly #runtime: SurfaceRuntime;
  readonly #id: string;
  readonly #scope: string;
  readonly #templateIndex: number | undefined;
  readonly #path: ComponentPath;
  /** {@link #path} with the component's type: the parent of its children, stable per type. */
  #placed: ComponentPath | undefined;
  #view: NodeView = EMPTY_VIEW;
  /** Unsubscribes from the binding React is currently subscribed through. */
  #bindingOff: (() => void) | undefined;
  #listener: (() => void) | undefined;

  constructor(
    runtime: SurfaceRuntime,
    id: string,
    scope: string,
    templateIndex: number | undefined,
    path: ComponentPath,
  ) {
    this.#runtime = runtime;
    this.#id = id;
    this.#scope = scope;
    this.#templateIndex = templateIndex;
    this.#path = path;
  }

  getSnapshot = (): NodeView => {
    const { surface, host, options } = this.#runtime;
    const view = this.#view;
    const record = surface.components.get(this.#id);
    if (record !== view.record) {
      // A new or replaced component: a new binding (the old one stops being read).
      const binding = record
        ? new ComponentBinding(record, new DataContext(host, this.#scope, this.#templateIndex), {
            maxTemplateItems: options.maxTemplateItems,
            unavailableActionMessage: options.strings.actionUnavailable,
          })
        : null;
      this.#view = {
        record,
        binding,
        snapshot: binding ? binding.getSnapshot() : null,
        node: binding ? createNode(binding, this.#runtime, this.#placedAs(binding.record)) : null,
      };
      if (this.#listener) this.#follow(binding);
    } else if (view.binding) {
      const snapshot = view.binding.getSnapshot();
      if (snapshot !== view.snapshot) this.#view = { ...view, snapshot };
    }
    return this.#view;
  };

  subscribe = (listener: () => void): (() => void) => {
    const { surface } = this.#runtime;
    this.#listener = listener;
    const offRecord = surface.disposed
      ? noop
      : surface.components.subscribe(this.#id, () => {
          this.getSnapshot();
          listener();
        });
    this.#follow(this.#view.binding);
    return () => {
      offRecord();
      this.#bindingOff?.();
      this.#bindingOff = undefined;
      this.#listener = undefined;
    };
  };

  /** The path its children see as their parent: one object per type, so they stay memoised. */
  #placedAs(record: ComponentRecord): ComponentPath {
    const catalog = this.#runtime.surface.catalogFor(record.properties);
    if (this.#placed?.type !== record.type || this.#placed.catalog !== catalog)
      this.#placed = { ...this.#path, type: record.type, catalog };
    return this.#placed;
  }

  /** Moves React's subscription to `binding` (the data paths its last evaluation read). */
  #follow(binding: ComponentBinding | null): void {
    this.#bindingOff?.();
    this.#bindingOff = undefined;
    const listener = this.#listener;
    if (binding && listener) this.#bindingOff = binding.subscribe(listener);
  }
}

/**
 * Renders component `id` of the current surface in `scope`. Memoised on its props (the `parent`
 * path is stable per mounted parent), so a parent re-render never re-renders an unchanged child.
 * One fiber and one store per component: the record, its binding and the implementation's props
 * (the implementation is keyed by the record's generation, so a replaced component remounts).
 */
export const ComponentNode = memo(function ComponentNode(props: ComponentNodeProps) {
  const { id, scope, templateIndex, parent } = props;
  const runtime = useContext(SurfaceContext);
  const parentScope = useContext(ScopeContext);
  if (!runtime) throw new Error('ComponentNode must be rendered inside an A2UI surface.');
  const { surface, options } = runtime;
  const depth = parent === null ? 0 : parent.depth + 1;
  const store = useMemo(
    () => new NodeStore(runtime, id, scope, templateIndex, { id, scope, depth, parent }),
    [runtime, id, scope, templateIndex, depth, parent],
  );
  const {
    record,
    snapshot,
    node: fullNode,
  } = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const node = useProgressiveChildren(fullNode, runtime);
  const tooDeep = depth > MAX_COMPONENT_DEPTH;
  const cycle = !tooDeep && isOwnAncestor(parent, id, scope);
  const admitted = useRenderBudget(runtime, props, !tooDeep && !cycle);

  const violation = record ? placementViolation(runtime, parent, record) : undefined;
  let content: ReactNode;
  if (tooDeep) {
    runtime.report({
      code: 'LIMIT_EXCEEDED',
      message: `Component "${id}" is nested deeper than ${MAX_COMPONENT_DEPTH} levels (a reference cycle?); it was not rendered.`,
    });
    content = (
      <div className="a2ui-fallback" role="note" data-a2ui-id={id}>
        {options.strings.unknownComponent(id)}
      </div>
    );
  } else if (cycle) {
    runtime.report({
      code: 'LIMIT_EXCEEDED',
      message: `Component "${id}" contains itself (a reference cycle); the repeated reference was not rendered.`,
    });
    content = (
      <div className="a2ui-fallback" role="note" data-a2ui-id={id} data-a2ui-cycle="">
        {options.strings.referenceCycle(id)}
      </div>
    );
  } else if (!admitted) {
    runtime.report({
      code: 'LIMIT_EXCEEDED',
      message: `Surface "${surface.surfaceId}" renders more than ${options.maxRenderedComponents} components (maxRenderedComponents); the rest are not rendered.`,
    });
    content = (
      <span className="a2ui-not-rendered" role="note" data-a2ui-not-rendered={id}>
        {options.strings.tooManyComponents}
      </span>
    );
  } else if (!record || !snapshot || !node) {
    content = (
      <span className="a2ui-placeholder" aria-busy="true" data-a2ui-pending={id}>
        <span className="a2ui-sr-only">{options.strings.loading}</span>
      </span>
    );
  } else if (violation) {
    // Reported like a validation error, once per placement (the processor drops repeats).
    runtime.report({ code: violation.code, path: '', message: violation.message });
    content = (
      <div
        className="a2ui-fallback"
        role="note"
        data-a2ui-id={id}
        data-a2ui-unallowed={violation.code}
      >
        {options.strings.notAllowedHere(id, record.type)}
      </div>
    );
  } else {
    const catalog = surface.catalogFor(record.properties);
    const registered = options.registry.get(catalog.catalogId, record.type);
    if (!registered) reportMissingImplementation(runtime, catalog, record.type);
    const Implementation = registered ?? UnknownComponent;
    const element = (
      <Implementation
        key={record.generation}
        id={record.id}
        type={record.type}
        props={snapshot.props}
        validation={snapshot.validation}
        node={node}
      />
    );
    // Custom implementations get an error boundary, so one broken component cannot blank the surface.
    content =
      registered !== undefined && !isBuiltin(registered) ? (
        <ComponentErrorBoundary
          key={record.generation}
          runtime={runtime}
          componentId={record.id}
          type={record.type}
        >
          {element}
        </ComponentErrorBoundary>
      ) : (
        element
      );
  }
  return scope === parentScope ? (
    content
  ) : (
    <ScopeContext.Provider value={scope}>{content}</ScopeContext.Provider>
  );
});

/**
 * The composition constraint (v1.0 `allowedParents` / `allowedChildren`) `record` breaks where
 * it is placed: under `parent`, or under the surface's implicit `Surface` container for `root`.
 */
function placementViolation(
  runtime: SurfaceRuntime,
  parent: ComponentPath | null,
  record: ComponentRecord,
): CompositionViolation | undefined {
  const { surface } = runtime;
  const childRules = compositionRulesOf(surface.catalogFor(record.properties), record.type);
  const parentType = parent === null ? SURFACE_CONTAINER_TYPE : parent.type;
  if (parentType === undefined) return undefined;
  const parentRules = parent === null ? {} : compositionRulesOf(parent.catalog, parentType);
  if (!childRules.allowedParents && !parentRules.allowedChildren) return undefined;
  return checkPlacement(
    {
      parentId: parent === null ? surface.surfaceId : parent.id,
      parentType,
      childId: record.id,
      childType: record.type,
    },
    parentRules,
    childRules,
  );
}

function reportMissingImplementation(
  runtime: SurfaceRuntime,
  catalog: Catalog,
  type: string,
): void {
  // A type its catalog does not define is the processor's to report (it checks every component
  // against the catalog's validator); only a catalog type without an implementation is ours.
  const validator = catalog.validator;
  if (validator && !validator.hasComponent(type)) return;
  runtime.report({
    code: 'VALIDATION_FAILED',
    path: '',
    message: `No renderer for component type "${type}" in catalog ${catalog.catalogId}; it is shown as a fallback.`,
  });
}

function isChildReference(value: unknown): value is ChildReference {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.scope === 'string' &&
    typeof value.key === 'string'
  );
}

/**
 * The {@link A2uiNode} of one component record. `path` is its placement with its type: the
 * parent its children render under (composition constraints read the type).
 */
function createNode(
  binding: ComponentBinding,
  runtime: SurfaceRuntime,
  path: ComponentPath,
): A2uiNode {
  const { record, context } = binding;
  const { client, surface, options } = runtime;
  const properties = record.properties as Record<string, unknown>;
  const { scope, templateIndex } = context;

  // Static children render in this component's scope and template item (so `@index` still
  // answers there); template instances carry their own.
  const renderChild = (id: unknown): ReactNode =>
    typeof id === 'string' && id !== '' ? (
      <ComponentNode id={id} scope={scope} templateIndex={templateIndex} parent={path} />
    ) : null;

  const renderChildren = (children: unknown): ReactNode[] => {
    if (!Array.isArray(children)) return [];
    const out: ReactNode[] = [];
    const seen = new Map<string, number>();
    for (const child of children) {
      if (isChildReference(child)) {
        out.push(
          <ComponentNode
            key={child.key}
            id={child.id}
            scope={child.scope}
            templateIndex={child.templateIndex}
            parent={path}
          />,
        );
      } else if (typeof child === 'string' && child !== '') {
        // A static list may name one id twice; keys must still be unique.
        const count = seen.get(child) ?? 0;
        seen.set(child, count + 1);
        out.push(
          <ComponentNode
            key={count === 0 ? child : `${child}#${count}`}
            id={child}
            scope={scope}
            templateIndex={templateIndex}
            parent={path}
          />,
        );
      }
    }
    return out;
  };

  return {
    client,
    surface,
    record,
    scope,
    dataContext: context,
    strings: options.strings,
    validationDisplay: options.validationDisplay,
    renderChild,
    renderChildren,
    isBound: (property) => isDataBinding(properties[property]),
    setValue(property, value) {
      const raw = properties[property];
      if (!isDataBinding(raw) || surface.disposed) return;
      try {
        // One notification for the write, however many subscribers it touches.
        surface.dataModel.batch(() => context.write(raw.path, value));
      } catch (error) {
        const failure = error as { code?: unknown; message?: unknown };
        runtime.report({
          code: typeof failure.code === 'string' ? failure.code : 'DATA_ERROR',
          message: `Writing ${property} of "${record.id}" failed: ${String(failure.message ?? error)}`,
          path: raw.path,
        });
      }
    },
    async dispatchAction(property = 'action') {
      try {
        // The binding already resolved the data context and evaluated the checks (kept current
        // by its subscriptions): the client does not evaluate them again.
        return await client.dispatchAction(surface.surfaceId, record.id, {
          action: properties[property],
          dataContext: context,
          validation: binding.getSnapshot().validation,
        });
      } catch (error) {
        options.onActionError(error, {
          surfaceId: surface.surfaceId,
          componentId: record.id,
          scope,
        });
        return false;
      }
    },
    sanitizeUrl(url, property = 'url') {
      if (typeof url !== 'string' || url === '') return undefined;
      const safe = client.urlPolicy.sanitize(url);
      if (safe === undefined) {
        runtime.report({
          code: 'URL_BLOCKED',
          message: `The URL policy refused ${JSON.stringify(url.slice(0, 200))} in ${property} of "${record.id}".`,
        });
      }
      return safe;
    },
    reportError: (error) => runtime.report(error),
  };
}

interface ComponentErrorBoundaryProps {
  readonly runtime: SurfaceRuntime;
  readonly componentId: string;
  readonly type: string;
  readonly children: ReactNode;
}

/** Keeps a throwing custom component from unmounting the whole surface; reports it once. */
class ComponentErrorBoundary extends Component<ComponentErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo): void {
    this.props.runtime.report({
      code: 'INTERNAL_ERROR',
      message: `Component "${this.props.componentId}" (${this.props.type}) failed to render: ${error instanceof Error ? error.message : String(error)}`,
    });
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="a2ui-fallback" role="note" data-a2ui-id={this.props.componentId}>
        {this.props.runtime.options.strings.renderFailed(this.props.componentId)}
      </div>
    );
  }
}
