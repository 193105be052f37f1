/**
 * The few words the renderer itself shows or announces. Everything else on screen comes from the
 * agent.
 */

/** Text the renderer shows or announces; override any of it through the `strings` option. */
export interface RendererStrings {
  /** Announced for a child that has not arrived yet (§7.7). */
  readonly loading: string;
  /** Visible fallback for a component type this client cannot render (§5.3). */
  readonly unknownComponent: (type: string) => string;
  /** Shown in place of a component (or surface) whose implementation threw while rendering. */
  readonly renderFailed: (componentId: string) => string;
  /** Shown instead of a component the surface has no budget left for (`maxRenderedComponents`). */
  readonly tooManyComponents: string;
  /** Shown instead of a component that contains itself (a reference cycle). */
  readonly referenceCycle: (componentId: string) => string;
  /**
   * Why a Button is disabled when its action calls a function this client does not have (the
   * first message of its `validation`).
   */
  readonly actionUnavailable: (functionName: string) => string;
  /** Shown when a surface still has no `root` after `rootTimeoutMs`. */
  readonly rootTimeout: (surfaceId: string, timeoutMs: number) => string;
  /** Accessible name of the Modal's close button. */
  readonly close: string;
  /** Accessible name of the ChoicePicker filter input. */
  readonly filterOptions: string;
  /** Shown when the ChoicePicker filter matches nothing. */
  readonly noMatchingOptions: string;
  /** Accessible name of an Image, Video or AudioPlayer whose URL the URL policy refused. */
  readonly blockedMedia: string;
  /** Shown in place of an Image that failed to load and has no description. */
  readonly imageFailed: string;
  /**
   * Read before a check message that is not an error (v1.0 `ValidationResult.severity`), since
   * its colour alone does not say it; visually hidden.
   */
  readonly checkSeverity: (severity: 'warning' | 'info') => string;
  /**
   * Shown instead of a component its catalog does not allow where it was placed (v1.0
   * `allowedParents` / `allowedChildren`: `UNALLOWED_PARENT`, `UNALLOWED_CHILD`).
   */
  readonly notAllowedHere: (componentId: string, type: string) => string;
}

/** English defaults of {@link RendererStrings}. */
export const DEFAULT_RENDERER_STRINGS: RendererStrings = {
  loading: 'Loading…',
  unknownComponent: (type) => `Unknown component: ${type}`,
  renderFailed: (componentId) => `"${componentId}" could not be shown.`,
  tooManyComponents: 'Not rendered: too many components',
  referenceCycle: (componentId) => `"${componentId}" contains itself and is not rendered.`,
  actionUnavailable: (functionName) =>
    `This action is not available (unknown function "${functionName}").`,
  rootTimeout: (surfaceId, timeoutMs) =>
    `Surface "${surfaceId}" has no root component after ${Math.round(timeoutMs / 1000)} s; nothing can be shown yet.`,
  close: 'Close',
  filterOptions: 'Filter options',
  noMatchingOptions: 'No matching options',
  blockedMedia: 'Media blocked by the URL policy',
  imageFailed: 'Image not available',
  checkSeverity: (severity) => (severity === 'warning' ? 'Warning: ' : 'Note: '),
  notAllowedHere: (componentId, type) => `"${componentId}" (${type}) is not allowed here.`,
};
