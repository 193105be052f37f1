/**
 * Shares one `A2uiClient` and the renderer options with every `<A2UIRenderer>` and hook below it.
 */
import type { A2uiClient } from '@a2ui-ts/core';
import { type ReactNode, useContext, useMemo, useRef } from 'react';
import type { RendererStrings } from '../strings/renderer-strings.js';
import {
  type ActionErrorInfo,
  ClientContext,
  type ClientContextValue,
  type RendererOptions,
} from './renderer-context.js';
import { resolveRendererOptions } from './renderer-options.js';

/** Props of {@link A2UIProvider}. */
export interface A2UIProviderProps extends RendererOptions {
  /** The client whose surfaces are rendered below. */
  readonly client: A2uiClient;
  readonly children?: ReactNode;
}

/**
 * Provides `client` and the renderer options to the tree. Nested providers inherit options they
 * do not set.
 *
 * @example
 * ```tsx
 * <A2UIProvider client={client} colorScheme="dark">
 *   <Sidebar><A2UIRenderer surfaceId="menu" /></Sidebar>
 *   <A2UIRenderer surfaceId="main" />
 * </A2UIProvider>
 * ```
 */
export function A2UIProvider({ client, children, ...options }: A2UIProviderProps) {
  const value = useClientContextValue(client, options);
  return <ClientContext.Provider value={value}>{children}</ClientContext.Provider>;
}

function shallowEqual(a: object | undefined, b: object | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every((key) =>
    Object.is((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/**
 * The context value for `client` with `options` over the enclosing provider's options.
 *
 * Stable across renders that pass inline callbacks or an inline `strings` object with the same
 * entries: a new value would rebind every component of every surface below.
 */
export function useClientContextValue(
  client: A2uiClient,
  options: RendererOptions,
): ClientContextValue {
  const parent = useContext(ClientContext);
  const base = parent?.options;
  const {
    registry,
    colorScheme,
    rootTimeoutMs,
    maxTemplateItems,
    maxRenderedComponents,
    mountSliceMs,
    maxMarkdownLength,
    maxMarkdownNesting,
    minHeadingLevel,
    validationDisplay,
  } = options;

  const stringsRef = useRef<Partial<RendererStrings> | undefined>(options.strings);
  if (!shallowEqual(stringsRef.current, options.strings)) stringsRef.current = options.strings;
  const strings = stringsRef.current;

  // Latest callbacks behind stable wrappers (the "latest ref" pattern).
  const callbacks = useRef({
    onActionError: options.onActionError,
    onRootTimeout: options.onRootTimeout,
    scheduleMount: options.scheduleMount,
  });
  callbacks.current = {
    onActionError: options.onActionError,
    onRootTimeout: options.onRootTimeout,
    scheduleMount: options.scheduleMount,
  };
  const hasActionErrorHandler = options.onActionError !== undefined;
  const hasRootTimeoutHandler = options.onRootTimeout !== undefined;
  const hasMountScheduler = options.scheduleMount !== undefined;

  return useMemo(() => {
    const onActionError = hasActionErrorHandler
      ? (error: unknown, info: ActionErrorInfo) => callbacks.current.onActionError?.(error, info)
      : undefined;
    const onRootTimeout = hasRootTimeoutHandler
      ? (surfaceId: string) => callbacks.current.onRootTimeout?.(surfaceId)
      : undefined;
    const scheduleMount = hasMountScheduler
      ? (mount: () => void) => callbacks.current.scheduleMount?.(mount)
      : undefined;
    return {
      client,
      options: resolveRendererOptions(
        {
          registry,
          strings,
          colorScheme,
          rootTimeoutMs,
          maxTemplateItems,
          maxRenderedComponents,
          mountSliceMs,
          maxMarkdownLength,
          maxMarkdownNesting,
          minHeadingLevel,
          validationDisplay,
          onActionError,
          onRootTimeout,
          scheduleMount,
        },
        base,
      ),
    };
  }, [
    client,
    base,
    registry,
    strings,
    colorScheme,
    rootTimeoutMs,
    maxTemplateItems,
    maxRenderedComponents,
    mountSliceMs,
    maxMarkdownLength,
    maxMarkdownNesting,
    minHeadingLevel,
    validationDisplay,
    hasActionErrorHandler,
    hasRootTimeoutHandler,
    hasMountScheduler,
  ]);
}
