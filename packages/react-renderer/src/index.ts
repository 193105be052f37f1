/**
 * `@a2ui-ts/react-renderer` — renders A2UI v0.9 surfaces of an `A2uiClient` in React 18/19: the
 * complete, accessible basic catalog, fine-grained updates, hooks and custom components.
 *
 * Import the stylesheet once: `import '@a2ui-ts/react-renderer/styles.css'`.
 *
 * @module
 */

// The binding moved to core (framework-free); re-exported so existing imports keep working.
export {
  type BindingSnapshot,
  ComponentBinding,
  type ComponentBindingOptions,
} from '@a2ui-ts/core';
export type { AudioPlayerProps } from './components/audio-player.js';
export { BASIC_COMPONENTS, MINIMAL_COMPONENTS } from './components/basic-components.js';
export type { ButtonProps } from './components/button.js';
export type { CardProps } from './components/card.js';
export type { CheckBoxProps } from './components/check-box.js';
export type { ChoiceOption, ChoicePickerProps } from './components/choice-picker.js';
export type { DateTimeInputProps } from './components/date-time-input.js';
export type { DividerProps } from './components/divider.js';
export type { IconProps } from './components/icon.js';
export type { ImageProps } from './components/image.js';
export type { ListProps } from './components/list.js';
export type { ModalProps } from './components/modal.js';
export type { FlexProps } from './components/row.js';
export type { SliderProps } from './components/slider.js';
export type { TabItem, TabsProps } from './components/tabs.js';
export type { TextProps } from './components/text.js';
export type { TextFieldProps } from './components/text-field.js';
export type { VideoProps } from './components/video.js';
export { useA2uiClient } from './hooks/use-a2ui-client.js';
export type {
  AgentFunctionCaller,
  UseAgentFunctionOptions,
} from './hooks/use-agent-function.js';
export { useAgentFunction } from './hooks/use-agent-function.js';
export type { UseDataValueOptions } from './hooks/use-data-value.js';
export { useDataValue } from './hooks/use-data-value.js';
export type { UseRendererFunctionOptions } from './hooks/use-renderer-function.js';
export { useRendererFunction } from './hooks/use-renderer-function.js';
export { useSurface } from './hooks/use-surface.js';
export { useSurfaces } from './hooks/use-surfaces.js';
export type { BasicIconName } from './icons/icon-paths.js';
export { BASIC_ICON_PATHS, MISSING_ICON_PATH, resolveIconPath } from './icons/icon-paths.js';
export type { MarkdownParserState } from './markdown/markdown-parser.js';
export { loadMarkdownParser } from './markdown/markdown-parser.js';
export { markdownParserProvided } from './markdown/markdown-parser-provided.js';
export type { MarkdownTextProps } from './markdown/markdown-text.js';
export { MarkdownText } from './markdown/markdown-text.js';
export type { A2UIProviderProps } from './provider/a2ui-provider.js';
export { A2UIProvider } from './provider/a2ui-provider.js';
export type {
  ActionErrorInfo,
  ColorScheme,
  RendererOptions,
  ValidationDisplay,
} from './provider/renderer-context.js';
export {
  DEFAULT_MAX_TEMPLATE_ITEMS,
  DEFAULT_ROOT_TIMEOUT_MS,
} from './provider/renderer-options.js';
export type {
  A2uiComponent,
  A2uiComponentProps,
  A2uiNode,
  ChildListValue,
  CommonProps,
  ComponentErrorReport,
  ResolvedAccessibility,
} from './registry/a2ui-component.js';
export { ANY_CATALOG, ComponentRegistry } from './registry/component-registry.js';
export type { CreateComponentRegistryOptions } from './registry/create-component-registry.js';
export { createComponentRegistry } from './registry/create-component-registry.js';
export type { A2UIRendererProps } from './renderer/a2ui-renderer.js';
export { A2UIRenderer } from './renderer/a2ui-renderer.js';
export type { A2UISurfaceProps } from './renderer/a2ui-surface.js';
export { A2UISurface } from './renderer/a2ui-surface.js';
export { MAX_COMPONENT_DEPTH } from './renderer/component-node.js';
export { DEFAULT_MIN_HEADING_LEVEL } from './renderer/heading-level.js';
export { DEFAULT_MOUNT_SLICE_MS, MIN_CHILDREN_PER_COMMIT } from './renderer/mount-scheduler.js';
export { UnknownComponent } from './renderer/unknown-component.js';
export type { RendererStrings } from './strings/renderer-strings.js';
export { DEFAULT_RENDERER_STRINGS } from './strings/renderer-strings.js';
