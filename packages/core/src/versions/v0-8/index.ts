export type { Initialization, LiteralKind } from './bound-values.js';
export {
  contentsToValue,
  downgradeDynamicValue,
  isV08BoundValue,
  normalizeV08Path,
  upgradeBoundValue,
  upgradeValue,
} from './bound-values.js';
export type { ComponentRule, PropertyRule, UpgradeRule } from './standard-components.js';
export { BASIC_COMPONENT_RULES, V08_UPGRADE_RULES } from './standard-components.js';
export type {
  DowngradeComponentOptions,
  UpgradeComponentOptions,
} from './translate-component.js';
export { downgradeComponent, upgradeComponent } from './translate-component.js';
export { createV08ProtocolVersion, v08 } from './v0-8.js';
export { v08BuiltinCatalogs } from './v08-catalogs.js';
export type { V08DowngradeResult } from './v08-downgrader.js';
export { V08Downgrader } from './v08-downgrader.js';
export type {
  V08BeginRendering,
  V08BoundValue,
  V08ClientMessage,
  V08Component,
  V08DataEntry,
  V08DataModelUpdate,
  V08DeleteSurface,
  V08ServerMessage,
  V08ServerMessageKind,
  V08SurfaceUpdate,
  V08UserAction,
} from './v08-messages.js';
export {
  getV08MessageKind,
  isV08ServerMessage,
  V08_SERVER_MESSAGE_KINDS,
  V08_STANDARD_CATALOG_ID,
  V08_VERSION,
} from './v08-messages.js';
export type { V08ReaderOptions } from './v08-reader.js';
export { createV08Reader } from './v08-reader.js';
export { encodeV08Action, encodeV08Error } from './v08-renderer-messages.js';
export type { V08Catalog } from './v08-schemas.js';
export type { V08UpgradeResult, V08UpgraderOptions } from './v08-upgrader.js';
export { V08Upgrader } from './v08-upgrader.js';
export type { V08Validator } from './v08-validator.js';
export { v08GenericValidator, v08StandardValidator } from './v08-validator.js';
