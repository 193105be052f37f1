/**
 * Reading one v0.8 message for the processor: validation against the official v0.8 schema, then
 * the upgrade to v0.9 messages. Pure apart from the caller's {@link V08Upgrader}.
 */
import { isRecord } from '../../protocol/guards.js';
import type { CreateSurface, ServerMessage } from '../../protocol/messages.js';
import type { ValidationIssue } from '../../validation/validation-issue.js';
import { getV08MessageKind, V08_VERSION, type V08ServerMessage } from './v08-messages.js';
import type { V08Upgrader } from './v08-upgrader.js';
import { v08GenericValidator, v08StandardValidator } from './v08-validator.js';

/** What a surface created from v0.8 remembers: its version and root id. */
export interface V08SurfaceOptions {
  protocolVersion: string;
  rootId: string;
}

/** Options of {@link readV08Message}. */
export interface ReadV08MessageOptions {
  upgrader: V08Upgrader;
  /** Validate against the v0.8 schema first. @default true */
  validate?: boolean;
  /**
   * True when `surfaceId` is a live v0.8 surface of the standard catalog: its components are
   * then checked against `standard_catalog_definition.json` in v0.8 terms.
   */
  isStandardSurface: (surfaceId: string) => boolean;
}

/** Result of {@link readV08Message}. */
export type ReadV08MessageResult =
  | {
      success: true;
      /** v0.9 messages to apply, in order (none while the surface awaits `beginRendering`). */
      messages: (ServerMessage & { createSurface?: CreateSurface })[];
      /** Options of the surface a `createSurface` among `messages` creates. */
      surface: (surfaceId: string) => V08SurfaceOptions;
    }
  | { success: false; surfaceId: string | undefined; issue: ValidationIssue };

/**
 * Validates and upgrades one v0.8 message. A `"version": "v0.8"` label, which the v0.8 schema
 * does not allow but some agents add, is ignored.
 */
export function readV08Message(
  message: Record<string, unknown>,
  options: ReadV08MessageOptions,
): ReadV08MessageResult {
  const { version: _label, ...wire } = message;
  const kind = getV08MessageKind(message);
  const body = kind ? wire[kind] : undefined;
  const surfaceId =
    isRecord(body) && typeof body.surfaceId === 'string' ? body.surfaceId : undefined;
  if (options.validate !== false) {
    const validator =
      surfaceId !== undefined && options.isStandardSurface(surfaceId)
        ? v08StandardValidator
        : v08GenericValidator;
    const [issue] = validator.validateServerMessage(wire);
    if (issue) return { success: false, surfaceId, issue };
  }
  const { messages } = options.upgrader.upgrade(wire as V08ServerMessage);
  return {
    success: true,
    messages,
    surface: (id) => ({
      protocolVersion: V08_VERSION,
      rootId: options.upgrader.rootIdOf(id) ?? 'root',
    }),
  };
}
