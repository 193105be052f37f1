export type { ComponentRecord } from './component-store.js';
export { ComponentStore } from './component-store.js';
export type { DataModelLimits, DataModelOptions } from './data-model.js';
export { DataModel, DEFAULT_DATA_MODEL_LIMITS } from './data-model.js';
export type { FunctionMessageListener } from './internal-applier.js';
export {
  encodeSegment,
  formatPointer,
  isArrayIndex,
  isPointerWithin,
  normalizePointer,
  parsePointer,
  resolvePointer,
} from './json-pointer.js';
export type { MessageInputOptions, MessageInputResult } from './message-input.js';
export { parseMessageInput } from './message-input.js';
export type {
  MessageProcessorOptions,
  ProcessorLimits,
  ProcessResult,
} from './message-processor.js';
export { DEFAULT_PROCESSOR_LIMITS, MessageProcessor } from './message-processor.js';
export type { Listener } from './notifier.js';
export { Notifier } from './notifier.js';
export type { SelectCatalogOptions } from './select-catalog.js';
export { catalogVersionFamily, checkCatalogVersion, selectCatalog } from './select-catalog.js';
export type { StateSnapshot, SurfaceSnapshot } from './snapshot.js';
export { snapshotState } from './snapshot.js';
export type { SurfaceOptions } from './surface.js';
export { Surface } from './surface.js';
