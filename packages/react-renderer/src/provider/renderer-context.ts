/**
 * React contexts shared by the renderer's pieces: the client with its options, the surface being
 * rendered, and the data scope of the nearest template item.
 */
import type { A2uiClient, BindingHost, Surface } from '@a2ui-ts/core';
import { type CSSProperties, createContext } from 'react';
import type { ComponentErrorReport } from '../registry/a2ui-component.js';
import type { ComponentRegistry } from '../registry/component-registry.js';
import type { MountScheduler } from '../renderer/mount-scheduler.js';
import type { RendererStrings } from '../strings/renderer-strings.js';

/** Where an action failed. */
export interface ActionErrorInfo {
  readonly surfaceId: string;
  readonly componentId: string;
  /** Data scope the action was resolved in. */
  readonly scope: string;
}

/** When inputs show the message of their first failing check (§8.4). */
export type ValidationDisplay = 'touched' | 'always';

/** Light, dark, or follow `prefers-color-scheme`. */
export type ColorScheme = 'auto' | 'light' | 'dark';

/** Options shared by `<A2UIProvider>` and `<A2UIRenderer>` (a renderer's own props win). */
export interface RendererOptions {
  /** Implementations by catalog and type. @default `createComponentRegistry()` (basic + minimal) */
  registry?: ComponentRegistry;
  /** Words the renderer shows itself (localisation). @default English */
  strings?: Partial<RendererStrings>;
  /**
   * `auto` follows `prefers-color-scheme`; `light` / `dark` set `data-theme` on every surface.
   * @default 'auto'
   */
  colorScheme?: ColorScheme;
  /**
   * Milliseconds a surface may exist without a `root` component before the renderer shows a
   * diagnostic and reports `TIMEOUT` to the agent (CopilotKit#6804). `Infinity` disables it.
   * @default 10000
   */
  rootTimeoutMs?: number;
  /**
   * Most template instances one ChildList renders; more items report `LIMIT_EXCEEDED`
   * (a2ui-project/a2ui#2387).
   * @default 5000
   */
  maxTemplateItems?: number;
  /**
   * Most component instances one surface renders at a time (each placement of a component
   * counts: a child listed twice, or a template item, is another instance). Further instances
   * show a small "not rendered" note instead of their subtree, and `LIMIT_EXCEEDED` is reported
   * once. Guards against trees that multiply (`a → [b, b]`, `b → [c, c]`, … or nested templates).
   * @default 10000
   */
  maxRenderedComponents?: number;
  /**
   * Milliseconds of rendering one commit may spend mounting a surface's components beyond the
   * first `MIN_CHILDREN_PER_COMMIT` (32) children; the rest mount in later commits, each from a
   * task of its own, so a surface at the caps never blocks input for long (issue 25). Shared by
   * every container of the surface, nested lists included. A surface's first commit mounts 32
   * children only (nothing measured yet; the first paint comes first). `0` mounts 32 children per
   * commit; `Infinity` mounts everything in one commit.
   * @default 10
   */
  mountSliceMs?: number;
  /**
   * Runs `mount` (the next commit's children of a surface still mounting) in a later task. Hosts
   * may defer it further (`requestIdleCallback`); tests hold it to see a surface mid-mount. The
   * surface is `aria-busy` until every child is mounted.
   * @default `(mount) => setTimeout(mount, 0)`
   */
  scheduleMount?: (mount: () => void) => void;
  /**
   * Longest Text (in UTF-16 code units) parsed as markdown; longer text is shown as plain
   * text, character for character. Markdown parsing is super-linear on some inputs.
   * @default 10000
   */
  maxMarkdownLength?: number;
  /**
   * Deepest block nesting (`>` quotes and list levels, counted per line) parsed as markdown;
   * deeper text is shown as plain text. Deep nesting can overflow the parser's stack.
   * @default 20
   */
  maxMarkdownNesting?: number;
  /**
   * Highest heading level an agent's text may take on the page, 1–6: an agent heading of level
   * n (a Text of variant `hn`, a markdown `#` line of n hashes) renders as `h(n + minHeadingLevel
   * − 1)`, never deeper than `h6`; its look stays that of level n (`a2ui-text-hn`). Set it below
   * the host page's own headings (2 under a page `<h1>`, 3 under section `<h2>`s) so the page's
   * `<h1>` stays the only one and the outline stays whole (WCAG 1.3.1). Other values throw
   * `VALIDATION_FAILED`.
   * @default 1
   */
  minHeadingLevel?: number;
  /**
   * `touched`: an input shows its first failing check once the user changed or left it, or when
   * it holds a value; `always`: from the first render, like the reference renderers. Buttons are
   * disabled by failing checks either way, and `aria-invalid` follows what is shown.
   * @default 'touched'
   */
  validationDisplay?: ValidationDisplay;
  /**
   * Called when an action could not be sent (no transport, link down). Resolution errors and
   * blocked URLs are reported to the agent by the client instead.
   * @default logs with `console.error`
   */
  onActionError?: (error: unknown, info: ActionErrorInfo) => void;
  /** Called once when a surface hits `rootTimeoutMs`. */
  onRootTimeout?: (surfaceId: string) => void;
}

/** {@link RendererOptions} with defaults applied. */
export interface ResolvedRendererOptions {
  readonly registry: ComponentRegistry;
  readonly strings: RendererStrings;
  readonly colorScheme: ColorScheme;
  readonly rootTimeoutMs: number;
  readonly maxTemplateItems: number;
  readonly maxRenderedComponents: number;
  readonly mountSliceMs: number;
  readonly scheduleMount: (mount: () => void) => void;
  readonly maxMarkdownLength: number;
  readonly maxMarkdownNesting: number;
  readonly minHeadingLevel: number;
  readonly validationDisplay: ValidationDisplay;
  readonly onActionError: (error: unknown, info: ActionErrorInfo) => void;
  readonly onRootTimeout: ((surfaceId: string) => void) | undefined;
}

/** What `<A2UIProvider>` shares. */
export interface ClientContextValue {
  readonly client: A2uiClient;
  readonly options: ResolvedRendererOptions;
}

/** The client and options of the nearest provider (internal; use the hooks). */
export const ClientContext = createContext<ClientContextValue | null>(null);

/** Attributes that carry a surface's theme; portals (the Modal) copy them. */
export interface SurfaceThemeAttributes {
  readonly className: string;
  readonly style: CSSProperties | undefined;
  readonly 'data-theme': 'light' | 'dark' | undefined;
}

/** Counts the component instances one rendered surface holds (`maxRenderedComponents`). */
export interface RenderBudget {
  /** Instances rendered in full (not as a "not rendered" note), committed or being rendered. */
  used: number;
  /**
   * Claims made while rendering and not committed yet, by the instance's props object (the same
   * object when Strict Mode renders an instance twice). Claims of renders React threw away are
   * dropped after the next commit.
   */
  readonly pending: Set<object>;
  /** A sweep of abandoned claims is queued. */
  sweepQueued: boolean;
}

/** Everything a component node needs from its surface. */
export interface SurfaceRuntime {
  readonly client: A2uiClient;
  readonly surface: Surface;
  readonly host: BindingHost;
  readonly options: ResolvedRendererOptions;
  readonly theme: SurfaceThemeAttributes;
  /** Component instances of this surface currently rendered (see `maxRenderedComponents`). */
  readonly budget: RenderBudget;
  /** Paces the mounting of the surface's children (`mountSliceMs`, `scheduleMount`). */
  readonly mounts: MountScheduler;
  /** Reports to the agent once per distinct error for this surface. */
  report(error: ComponentErrorReport): void;
}

/** The surface being rendered (internal; use `useSurface()`). */
export const SurfaceContext = createContext<SurfaceRuntime | null>(null);

/** Absolute data scope of the nearest template item; `/` outside templates. */
export const ScopeContext = createContext<string>('/');
