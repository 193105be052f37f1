/**
 * Renders one surface from its `root` component (spec §5.2), with its theme (§9 Theme), a
 * loading state until `root` arrives and a diagnostic when it never does.
 */
import type { A2uiError, BindingHost, ClientError, Surface } from '@a2ui-ts/core';
import {
  Component,
  type CSSProperties,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';
import {
  ClientContext,
  type RenderBudget,
  type ResolvedRendererOptions,
  SurfaceContext,
  type SurfaceRuntime,
  type SurfaceThemeAttributes,
} from '../provider/renderer-context.js';
import { ComponentNode } from './component-node.js';
import { MountScheduler } from './mount-scheduler.js';

/** Props of {@link A2UISurface}. */
export interface A2UISurfaceProps {
  /** A live surface of the provider's client (`client.processor.getSurface(id)`). */
  readonly surface: Surface;
  /** Extra class on the surface element. */
  readonly className?: string;
}

const PRIMARY_COLOR = /^#[0-9a-fA-F]{6}$/;

/** WCAG relative luminance of `#rrggbb`. */
function luminanceOf(hex: string): number {
  const channel = (offset: number): number => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

function contrastOf(a: string, b: string): number {
  const [light, dark] = [luminanceOf(a), luminanceOf(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
function contrastingColor(hex: string): string {
  // Contrast against white (1.05 / (L + 0.05)) beats contrast against black ((L + 0.05) / 0.05)
  // exactly when L is below ~0.179.
  return luminanceOf(hex) < 0.179 ? '#ffffff' : '#000000';
}

/**
 * The hover backgrounds of each scheme (`--a2ui-color-surface-variant` in styles.css): the
 * darkest light one and the lightest dark one a primary-coloured text sits on.
 */
const TEXT_BACKGROUNDS = { light: '#f0f2f5', dark: '#2d2f31' } as const;

/**
 * `hex` as text on `scheme`'s surfaces: itself when it reads at 4.5:1 (WCAG 1.4.3 AA, normal
 * text), else mixed towards black (light) or white (dark) in 5 % steps until it does. An agent's
 * brand colour chosen for a light page (an orange, say) reads at 3:1 on a dark one.
 */
function readableText(hex: string, scheme: 'light' | 'dark'): string {
  const background = TEXT_BACKGROUNDS[scheme];
  const target = scheme === 'light' ? 0 : 255;
  for (let step = 0; step <= 20; step++) {
    const mixed = `#${[1, 3, 5]
      .map((offset) => {
        const value = Number.parseInt(hex.slice(offset, offset + 2), 16);
        return Math.round(value + ((target - value) * step) / 20)
          .toString(16)
          .padStart(2, '0');
      })
      .join('')}`;
    if (contrastOf(mixed, background) >= 4.5) return mixed;
  }
  return scheme === 'light' ? '#000000' : '#ffffff';
}

/** The surface's theme as element attributes; `primaryColor` only when it is a `#rrggbb` colour. */
export function surfaceThemeAttributes(
  surface: Surface,
  options: ResolvedRendererOptions,
  className?: string,
): SurfaceThemeAttributes {
  const primary = surface.theme?.primaryColor;
  let style: CSSProperties | undefined;
  if (typeof primary === 'string' && PRIMARY_COLOR.test(primary)) {
    style = {
      '--a2ui-color-primary': primary,
      '--a2ui-color-on-primary': contrastingColor(primary),
      // Text in the primary colour (a default Button's label), per scheme: styles.css picks one.
      '--a2ui-color-primary-text-light': readableText(primary, 'light'),
      '--a2ui-color-primary-text-dark': readableText(primary, 'dark'),
    } as CSSProperties;
  }
  return {
    className: className ? `a2ui-surface ${className}` : 'a2ui-surface',
    style,
    'data-theme': options.colorScheme === 'auto' ? undefined : options.colorScheme,
  };
}

/**
 * Delivers `deliver(item)` for each queued item after the current render, in one microtask per
 * burst however many arrive (a tree cut off at its budget reports once per cut instance). Nothing
 * is delivered once the surface is disposed. De-duplication is the processor's: one set for every
 * error, whoever raised it.
 */
function createDeferred<T>(surface: Surface, deliver: (item: T) => void): (item: T) => void {
  let queue: T[] | undefined;
  return (item) => {
    if (queue) {
      queue.push(item);
      return;
    }
    queue = [item];
    // Components report while rendering; listeners of the processor must not run inside render.
    queueMicrotask(() => {
      const items = queue!;
      queue = undefined;
      if (surface.disposed) return;
      for (const queued of items) deliver(queued);
    });
  };
}

function createReporter(
  surface: Surface,
  report: (error: ClientError) => void,
): SurfaceRuntime['report'] {
  const deferred = createDeferred(surface, report);
  return (error) => {
    const { surfaceId } = surface;
    deferred(
      error.code === 'VALIDATION_FAILED'
        ? { code: 'VALIDATION_FAILED', surfaceId, path: error.path ?? '', message: error.message }
        : {
            code: error.code,
            surfaceId,
            message: error.message,
            ...(error.path === undefined ? {} : { path: error.path }),
          },
    );
  };
}

/**
 * The client's binding host with its error channel made render-safe: bindings evaluate while
 * React renders, so expression errors are delivered after render (and de-duplicated by the
 * processor, like every error).
 */
function renderSafeHost(host: BindingHost, surface: Surface): BindingHost {
  // Every other member as the client made it (e.g. v0.8's `templatesIterateObjects`).
  return {
    ...host,
    reportError: createDeferred(surface, (error: A2uiError) => host.reportError(error)),
  };
}

function hostOf(
  client: { getBindingHost(surfaceId: string): BindingHost },
  surface: Surface,
): BindingHost | undefined {
  try {
    return client.getBindingHost(surface.surfaceId);
  } catch {
    // The surface was deleted between the list update and this render.
    return undefined;
  }
}

const notBusy = (): boolean => false;

/**
 * Renders one surface of the client given by the nearest `<A2UIProvider>` or `<A2UIRenderer>`.
 * Usually you render `<A2UIRenderer>` instead, which finds the surfaces for you.
 *
 * @throws Error when rendered outside a provider
 */
export function A2UISurface({ surface, className }: A2UISurfaceProps) {
  const context = useContext(ClientContext);
  if (!context)
    throw new Error('<A2UISurface> must be rendered inside <A2UIProvider> or <A2UIRenderer>.');
  const { client, options } = context;
  // One count per rendered surface, kept when options change (the mounted instances stay).
  const [budget] = useState(
    (): RenderBudget => ({ used: 0, pending: new Set(), sweepQueued: false }),
  );
  // Kept when options change too: the containers waiting for their next slice stay registered.
  const [mounts] = useState(() => new MountScheduler(options));
  const busy = useSyncExternalStore(mounts.subscribe, mounts.isBusy, notBusy);
  const runtime = useMemo((): SurfaceRuntime | undefined => {
    const host = hostOf(client, surface);
    if (!host) return undefined;
    mounts.pacing = options;
    return {
      client,
      surface,
      host: renderSafeHost(host, surface),
      options,
      theme: surfaceThemeAttributes(surface, options, className),
      budget,
      mounts,
      report: createReporter(surface, (error) => client.processor.reportError(error)),
    };
  }, [client, surface, options, className, budget, mounts]);
  if (!runtime) return null;
  return (
    <SurfaceContext.Provider value={runtime}>
      <div
        {...runtime.theme}
        data-a2ui-surface={surface.surfaceId}
        // Children are still being mounted, a slice per commit (`mountSliceMs`).
        aria-busy={busy || undefined}
      >
        <SurfaceErrorBoundary runtime={runtime}>
          <SurfaceRoot runtime={runtime} />
        </SurfaceErrorBoundary>
      </div>
    </SurfaceContext.Provider>
  );
}

function SurfaceRoot({ runtime }: { runtime: SurfaceRuntime }) {
  const { surface } = runtime;
  const subscribe = useCallback(
    (listener: () => void) =>
      surface.disposed ? () => {} : surface.components.subscribe(surface.rootId, listener),
    [surface],
  );
  // `rootId` is "root" unless a v0.8 agent's beginRendering named another component.
  const hasRoot = useSyncExternalStore(
    subscribe,
    () => surface.components.has(surface.rootId),
    () => surface.components.has(surface.rootId),
  );
  return hasRoot ? (
    <ComponentNode id={surface.rootId} scope="/" parent={null} />
  ) : (
    <RootPending runtime={runtime} />
  );
}

/** Until `root` exists nothing is visible (§5.2); after `rootTimeoutMs`, say so and tell the agent. */
function RootPending({ runtime }: { runtime: SurfaceRuntime }) {
  const { surface, options } = runtime;
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    if (!Number.isFinite(options.rootTimeoutMs)) return;
    const timer = setTimeout(() => setTimedOut(true), Math.max(0, options.rootTimeoutMs));
    return () => clearTimeout(timer);
  }, [options.rootTimeoutMs]);
  useEffect(() => {
    if (!timedOut) return;
    runtime.report({
      code: 'TIMEOUT',
      message: `Surface "${surface.surfaceId}" has no "${surface.rootId}" component ${options.rootTimeoutMs} ms after it was rendered; nothing can be shown.`,
    });
    options.onRootTimeout?.(surface.surfaceId);
  }, [timedOut, runtime, surface, options]);
  if (timedOut) {
    return (
      <div className="a2ui-diagnostic" role="alert" data-a2ui-root-timeout="">
        {options.strings.rootTimeout(surface.surfaceId, options.rootTimeoutMs)}
      </div>
    );
  }
  return (
    <div className="a2ui-surface-loading" role="status" aria-busy="true">
      <span className="a2ui-sr-only">{options.strings.loading}</span>
    </div>
  );
}

/** Last line of defence: a rendering bug shows a note instead of unmounting the host app. */
class SurfaceErrorBoundary extends Component<
  { runtime: SurfaceRuntime; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    this.props.runtime.report({
      code: 'INTERNAL_ERROR',
      message: `Surface "${this.props.runtime.surface.surfaceId}" failed to render: ${error instanceof Error ? error.message : String(error)}`,
    });
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="a2ui-diagnostic" role="alert">
        {this.props.runtime.options.strings.renderFailed(this.props.runtime.surface.surfaceId)}
      </div>
    );
  }
}
