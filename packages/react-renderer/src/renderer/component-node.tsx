/**
 * One component reference in the tree (digest §5.2–5.3): subscribes to its own record only,
 * shows a placeholder until it arrives and a fallback when nothing can render it, and binds its
 * properties in its data scope.
 */
import {
  type ChildReference,
  type ComponentRecord,
  DataContext,
  isDataBinding,
  isRecord,
  Surface,
} from '@a2ui-ts/core';
import {
  Component,
  type ErrorInfo,
  memo,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useSyncExternalStore,
} from 'react';
import { ComponentBinding } from '../binding/component-binding.js';
import { ScopeContext, SurfaceContext, type SurfaceRuntime } from '../provider/renderer-context.js';
import type { A2uiComponent, A2uiNode } from '../registry/a2ui-component.js';
import { UnknownComponent } from './unknown-component.js';

/**
 * Deepest component nesting rendered. A reference cycle (`a` → `b` → `a`), which incremental
 * updates can create, stops here with a visible fallback instead of overflowing the stack. The
 * agent-side validator caps logical depth at 50 (digest §5.2).
 */
export const MAX_COMPONENT_DEPTH = 64;

const noop = (): void => {};

/** Props of {@link ComponentNode}. */
export interface ComponentNodeProps {
  /** Component id to render. */
  readonly id: string;
  /** Absolute data scope it renders in. */
  readonly scope: string;
  /** Nesting depth from `root` (0). */
  readonly depth: number;
}

/**
 * Renders component `id` of the current surface in `scope`. Memoised on its primitive props, so
 * a parent re-render never re-renders an unchanged child.
 */
export const ComponentNode = memo(function ComponentNode({ id, scope, depth }: ComponentNodeProps) {
  const runtime = useContext(SurfaceContext);
  const parentScope = useContext(ScopeContext);
  if (!runtime) throw new Error('ComponentNode must be rendered inside an A2UI surface.');
  const { surface, options } = runtime;
  const subscribe = useCallback(
    (listener: () => void) =>
      surface.disposed ? noop : surface.components.subscribe(id, listener),
    [surface, id],
  );
  const getSnapshot = useCallback(() => surface.components.get(id), [surface, id]);
  const record = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);

  let content: ReactNode;
  if (depth > MAX_COMPONENT_DEPTH) {
    runtime.report({
      code: 'LIMIT_EXCEEDED',
      message: `Component "${id}" is nested deeper than ${MAX_COMPONENT_DEPTH} levels (a reference cycle?); it was not rendered.`,
    });
    content = (
      <div className="a2ui-fallback" role="note" data-a2ui-id={id}>
        {options.strings.unknownComponent(id)}
      </div>
    );
  } else if (!record) {
    content = (
      <span className="a2ui-placeholder" aria-busy="true" data-a2ui-pending={id}>
        <span className="a2ui-sr-only">{options.strings.loading}</span>
      </span>
    );
  } else {
    const registered = options.registry.get(surface.catalogId, record.type);
    if (!registered) reportMissingImplementation(runtime, record.type);
    content = (
      <BoundComponent
        key={record.generation}
        record={record}
        scope={scope}
        depth={depth}
        implementation={registered ?? UnknownComponent}
        runtime={runtime}
        isolate={registered !== undefined && !isBuiltin(registered)}
      />
    );
  }
  return scope === parentScope ? (
    content
  ) : (
    <ScopeContext.Provider value={scope}>{content}</ScopeContext.Provider>
  );
});

interface BoundComponentProps {
  readonly record: ComponentRecord;
  readonly scope: string;
  readonly depth: number;
  readonly implementation: A2uiComponent;
  readonly runtime: SurfaceRuntime;
  /** Wrap in an error boundary (custom implementations), so one broken component cannot blank the surface. */
  readonly isolate: boolean;
}

function BoundComponent({
  record,
  scope,
  depth,
  implementation: Implementation,
  runtime,
  isolate,
}: BoundComponentProps) {
  const binding = useMemo(
    () =>
      new ComponentBinding(record, new DataContext(runtime.host, scope), {
        maxTemplateItems: runtime.options.maxTemplateItems,
      }),
    [record, scope, runtime],
  );
  const snapshot = useSyncExternalStore(
    binding.subscribe,
    binding.getSnapshot,
    binding.getSnapshot,
  );
  const node = useMemo(() => createNode(binding, runtime, depth), [binding, runtime, depth]);
  const element = (
    <Implementation
      id={record.id}
      type={record.type}
      props={snapshot.props}
      validation={snapshot.validation}
      node={node}
    />
  );
  return isolate ? (
    <ComponentErrorBoundary runtime={runtime} componentId={record.id} type={record.type}>
      {element}
    </ComponentErrorBoundary>
  ) : (
    element
  );
}

const builtins = new WeakSet<A2uiComponent>();

/** Marks built-in implementations, which render without a per-component error boundary. */
export function markBuiltin<T extends A2uiComponent>(component: T): T {
  builtins.add(component);
  return component;
}

function isBuiltin(component: A2uiComponent): boolean {
  return builtins.has(component);
}

function reportMissingImplementation(runtime: SurfaceRuntime, type: string): void {
  // Shares the processor's once-per-surface set, so an unknown type is reported exactly once
  // whether the processor or the renderer noticed it first.
  if (!runtime.surface.claimReport(Surface.unknownTypeTopic(type))) return;
  runtime.report({
    code: 'VALIDATION_FAILED',
    path: '',
    message: `No renderer for component type "${type}" in catalog ${runtime.surface.catalogId}; it is shown as a fallback.`,
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

function createNode(binding: ComponentBinding, runtime: SurfaceRuntime, depth: number): A2uiNode {
  const { record, context } = binding;
  const { client, surface, options } = runtime;
  const properties = record.properties as Record<string, unknown>;
  const scope = context.scope;
  const childDepth = depth + 1;

  const renderChild = (id: unknown): ReactNode =>
    typeof id === 'string' && id !== '' ? (
      <ComponentNode id={id} scope={scope} depth={childDepth} />
    ) : null;

  const renderChildren = (children: unknown): ReactNode[] => {
    if (!Array.isArray(children)) return [];
    const out: ReactNode[] = [];
    const seen = new Map<string, number>();
    for (const child of children) {
      if (isChildReference(child)) {
        out.push(
          <ComponentNode key={child.key} id={child.id} scope={child.scope} depth={childDepth} />,
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
            depth={childDepth}
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
        return await client.dispatchAction(surface.surfaceId, record.id, {
          scope,
          action: properties[property],
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
