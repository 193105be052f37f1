/**
 * The built-in protocol versions and the process-wide registry `MessageProcessor` routes with by
 * default.
 */
import type { ProtocolVersion } from './protocol-version.js';
import { ProtocolVersionRegistry } from './protocol-version-registry.js';
import { v08 } from './v0-8/v0-8.js';
import { v09 } from './v0-9.js';
import { v091 } from './v0-9-1.js';
import { v10 } from './v1-0.js';

/** A new registry holding the built-in versions: v0.9, v0.9.1, v1.0. */
export function createProtocolVersions(): ProtocolVersionRegistry {
  return new ProtocolVersionRegistry([v08, v09, v091, v10]);
}

/**
 * The registry used when a `MessageProcessor` gets no `protocolVersions` option. The v0.8 reader
 * registers itself here (`registerProtocolVersion(v08)`).
 */
export const defaultProtocolVersions: ProtocolVersionRegistry =
  /* @__PURE__ */ createProtocolVersions();

/**
 * The module that reads envelope `version` (any spelling: `"v1.0"`, `"1.0"`).
 *
 * @throws A2uiError `VALIDATION_FAILED` (path `/version`) "Unsupported protocol version '…'"
 *
 * @example
 * ```ts
 * getProtocolVersion('v0.9.1').a2aExtensionUri; // "https://a2ui.org/a2a-extension/a2ui/v0.9.1"
 * ```
 */
export function getProtocolVersion(version: string): ProtocolVersion {
  return defaultProtocolVersions.get(version);
}

/**
 * Adds a version module to {@link defaultProtocolVersions} (or replaces the one of its name).
 *
 * @example
 * ```ts
 * registerProtocolVersion(v08);
 * ```
 */
export function registerProtocolVersion(version: ProtocolVersion): void {
  defaultProtocolVersions.register(version);
}
