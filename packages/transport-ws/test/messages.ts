/** The A2UI messages the tests exchange. */
import { BASIC_CATALOG_ID, type ClientMessage, type ServerMessage } from '@a2ui-ts/core';

/** `createSurface` of surface `main`. */
export const surface: ServerMessage = {
  version: 'v0.9',
  createSurface: { surfaceId: 'main', catalogId: BASIC_CATALOG_ID },
};

/** `updateDataModel` of surface `main`. */
export const set = (path: string, value: unknown): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'main', path, value },
});

/** An `action` from surface `main`, at a fixed time. */
export const action = (name: string, context: Record<string, unknown> = {}): ClientMessage => ({
  version: 'v0.9',
  action: {
    name,
    surfaceId: 'main',
    sourceComponentId: 'send',
    timestamp: '2026-01-15T12:00:00.000Z',
    context,
  },
});

/** Client metadata naming the basic catalog. */
export const metadata = {
  a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } },
};
