/**
 * The client of the nearest provider.
 */
import type { A2uiClient } from '@a2ui-ts/core';
import { useContext } from 'react';
import { ClientContext } from '../provider/renderer-context.js';

/**
 * The `A2uiClient` of the nearest `<A2UIProvider>` or `<A2UIRenderer>`.
 *
 * @throws Error outside a provider (unless `optional`)
 * @example
 * ```tsx
 * const client = useA2uiClient();
 * const onReset = () => client.processor.reset();
 * ```
 */
export function useA2uiClient(): A2uiClient;
/** With `{ optional: true }`: `undefined` outside a provider instead of throwing. */
export function useA2uiClient(options: { optional: true }): A2uiClient | undefined;
export function useA2uiClient(options: { optional?: boolean } = {}): A2uiClient | undefined {
  const context = useContext(ClientContext);
  if (!context && !options.optional)
    throw new Error('useA2uiClient must be called inside <A2UIProvider> or <A2UIRenderer>.');
  return context?.client;
}
