/**
 * The live data model of one surface.
 */
import type { Surface } from '@a2ui-ts/core';
import { useSyncExternalStore } from 'react';
import { JsonView } from './json-view.js';

/** Props of {@link DataModelView}. */
export interface DataModelViewProps {
  surface: Surface;
}

/** Re-renders on every change anywhere in the model (the root path hears all of them). */
export function DataModelView({ surface }: DataModelViewProps) {
  const model = useSyncExternalStore(
    (listener) => surface.dataModel.subscribe('/', listener),
    () => surface.dataModel.getSnapshot(),
  );
  return <JsonView value={model} label={`Data model of ${surface.surfaceId}`} />;
}
