/** Client messages and readers of server messages shared by the tests. */
import {
  type ActionMessage,
  BASIC_CATALOG_ID,
  type ClientMessageMetadata,
  type ServerMessage,
} from '@a2ui-ts/core';
import type { TransportRecording } from '@a2ui-ts/core/testing';

/** An action message named `name` on surface `s`. */
export const action = (name: string): ActionMessage => ({
  version: 'v0.9',
  action: {
    name,
    surfaceId: 's',
    sourceComponentId: 'b',
    timestamp: new Date().toISOString(),
    context: {},
  },
});

/** Values of the `updateDataModel` messages at `path`, in arrival order. */
export function valuesAt(recording: TransportRecording, path: string): unknown[] {
  return (recording.messages() as ServerMessage[]).flatMap((message) =>
    'updateDataModel' in message && message.updateDataModel.path === path
      ? [message.updateDataModel.value]
      : [],
  );
}

/** The metadata every client message carries: this client's capabilities. */
export const METADATA: ClientMessageMetadata = {
  a2uiClientCapabilities: { 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } },
};
