/**
 * Defaults of the renderer options, applied in one place.
 */
import {
  DEFAULT_MAX_MARKDOWN_LENGTH,
  DEFAULT_MAX_MARKDOWN_NESTING,
} from '../markdown/markdown-text.js';
import type { ComponentRegistry } from '../registry/component-registry.js';
import { createComponentRegistry } from '../registry/create-component-registry.js';
import { checkMinHeadingLevel, DEFAULT_MIN_HEADING_LEVEL } from '../renderer/heading-level.js';
import { DEFAULT_MOUNT_SLICE_MS } from '../renderer/mount-scheduler.js';
import { DEFAULT_RENDERER_STRINGS } from '../strings/renderer-strings.js';
import type {
  ActionErrorInfo,
  RendererOptions,
  ResolvedRendererOptions,
} from './renderer-context.js';

/** Default of the `rootTimeoutMs` option, in milliseconds. */
export const DEFAULT_ROOT_TIMEOUT_MS = 10_000;

/** Default of the `maxTemplateItems` option (core's own template cap). */
export const DEFAULT_MAX_TEMPLATE_ITEMS = 5000;

/** Default of the `maxRenderedComponents` option. */
export const DEFAULT_MAX_RENDERED_COMPONENTS = 10_000;

const scheduleInNewTask = (mount: () => void): void => {
  setTimeout(mount, 0);
};

let defaultRegistry: ComponentRegistry | undefined;

/** The registry used when none is given; created on first use so importing stays side-effect free. */
export function getDefaultRegistry(): ComponentRegistry {
  defaultRegistry ??= createComponentRegistry();
  return defaultRegistry;
}

const logActionError = (error: unknown, info: ActionErrorInfo): void => {
  console.error(
    `[a2ui] action of "${info.componentId}" on surface "${info.surfaceId}" failed:`,
    error,
  );
};

/**
 * Applies defaults; `override` wins over `base` property by property.
 * @throws A2uiError `VALIDATION_FAILED` when `minHeadingLevel` is not an integer from 1 to 6
 */
export function resolveRendererOptions(
  override: RendererOptions,
  base?: ResolvedRendererOptions,
): ResolvedRendererOptions {
  return {
    registry: override.registry ?? base?.registry ?? getDefaultRegistry(),
    strings: override.strings
      ? { ...(base?.strings ?? DEFAULT_RENDERER_STRINGS), ...override.strings }
      : (base?.strings ?? DEFAULT_RENDERER_STRINGS),
    colorScheme: override.colorScheme ?? base?.colorScheme ?? 'auto',
    rootTimeoutMs: override.rootTimeoutMs ?? base?.rootTimeoutMs ?? DEFAULT_ROOT_TIMEOUT_MS,
    maxTemplateItems:
      override.maxTemplateItems ?? base?.maxTemplateItems ?? DEFAULT_MAX_TEMPLATE_ITEMS,
    maxRenderedComponents:
      override.maxRenderedComponents ??
      base?.maxRenderedComponents ??
      DEFAULT_MAX_RENDERED_COMPONENTS,
    mountSliceMs: override.mountSliceMs ?? base?.mountSliceMs ?? DEFAULT_MOUNT_SLICE_MS,
    scheduleMount: override.scheduleMount ?? base?.scheduleMount ?? scheduleInNewTask,
    maxMarkdownLength:
      override.maxMarkdownLength ?? base?.maxMarkdownLength ?? DEFAULT_MAX_MARKDOWN_LENGTH,
    maxMarkdownNesting:
      override.maxMarkdownNesting ?? base?.maxMarkdownNesting ?? DEFAULT_MAX_MARKDOWN_NESTING,
    minHeadingLevel: checkMinHeadingLevel(
      override.minHeadingLevel ?? base?.minHeadingLevel ?? DEFAULT_MIN_HEADING_LEVEL,
    ),
    validationDisplay: override.validationDisplay ?? base?.validationDisplay ?? 'touched',
    onActionError: override.onActionError ?? base?.onActionError ?? logActionError,
    onRootTimeout: override.onRootTimeout ?? base?.onRootTimeout,
  };
}
