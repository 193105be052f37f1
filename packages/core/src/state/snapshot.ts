/**
 * A plain-JSON picture of a processor's state: what `a2ui replay` prints and what tests compare.
 */
import { setOwn } from '../protocol/guards.js';
import type { Theme } from '../protocol/messages.js';
import type { MessageProcessor } from './message-processor.js';

/** One surface in a {@link StateSnapshot}. */
export interface SurfaceSnapshot {
  catalogId: string;
  theme?: Theme;
  sendDataModel: boolean;
  /** Components by id, each exactly as last received (after graceful degradation). */
  components: Record<string, Record<string, unknown>>;
  dataModel: unknown;
}

/** `{"surfaces": {"<id>": SurfaceSnapshot}}` in creation order. */
export interface StateSnapshot {
  surfaces: Record<string, SurfaceSnapshot>;
}

/** Captures the processor's state as plain JSON. */
export function snapshotState(processor: MessageProcessor): StateSnapshot {
  const surfaces: Record<string, SurfaceSnapshot> = {};
  for (const surface of processor.getSurfaces()) {
    const components: Record<string, Record<string, unknown>> = {};
    for (const record of surface.components.values()) {
      setOwn(components, record.id, { ...record.properties });
    }
    const snapshot: SurfaceSnapshot = {
      catalogId: surface.catalogId,
      sendDataModel: surface.sendDataModel,
      components,
      dataModel: surface.dataModel.getSnapshot(),
    };
    if (surface.theme !== undefined) snapshot.theme = surface.theme;
    setOwn(surfaces, surface.surfaceId, snapshot);
  }
  return { surfaces };
}
