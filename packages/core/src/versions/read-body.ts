/**
 * Field readers for message bodies: each throws a `VALIDATION_FAILED` {@link A2uiError} whose
 * path points into the original message.
 */

import { isRecord } from '../protocol/guards.js';
import type { ComponentInstance } from '../protocol/messages.js';
import { encodeSegment } from '../state/json-pointer.js';
import { missingIdMessage, requiredStringMessage } from '../state/spec-wording.js';
import { specError } from './read-envelope.js';

/** Reads the fields of one message body, checking types and unknown keys. */
export class BodyReader {
  constructor(
    readonly kind: string,
    readonly body: Readonly<Record<string, unknown>>,
    readonly surfaceId?: string,
  ) {}

  /** `/kind/field`. */
  pathOf(field: string): string {
    return `/${this.kind}/${encodeSegment(field)}`;
  }

  /** Throws for any key outside `allowed`. */
  onlyKeys(allowed: readonly string[]): void {
    for (const key of Object.keys(this.body)) {
      if (!allowed.includes(key)) {
        throw specError(
          this.pathOf(key),
          `Unexpected property "${key}" in ${this.kind}; it holds only ${allowed.map((name) => `"${name}"`).join(', ')}.`,
          this.surfaceId,
        );
      }
    }
  }

  requiredString(field: string): string {
    const value = this.body[field];
    if (typeof value !== 'string')
      throw specError(
        this.pathOf(field),
        requiredStringMessage(`${this.kind}.${field}`, value),
        this.surfaceId,
      );
    return value;
  }

  optionalString(field: string): string | undefined {
    const value = this.body[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'string')
      throw specError(
        this.pathOf(field),
        `"${this.kind}.${field}" must be a string.`,
        this.surfaceId,
      );
    return value;
  }

  optionalBoolean(field: string): boolean | undefined {
    const value = this.body[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean')
      throw specError(
        this.pathOf(field),
        `"${this.kind}.${field}" must be a boolean.`,
        this.surfaceId,
      );
    return value;
  }

  optionalObject(field: string): Record<string, unknown> | undefined {
    const value = this.body[field];
    if (value === undefined) return undefined;
    if (!isRecord(value))
      throw specError(
        this.pathOf(field),
        `"${this.kind}.${field}" must be an object.`,
        this.surfaceId,
      );
    return value;
  }

  /** A non-empty array of objects with a string `id` (component types are checked later). */
  components(field: string): ComponentInstance[] {
    const value = this.body[field];
    if (!Array.isArray(value) || value.length === 0) {
      throw specError(
        this.pathOf(field),
        `"${this.kind}.${field}" must be a non-empty array of components.`,
        this.surfaceId,
      );
    }
    // An indexed loop, no closure: this runs for every components message.
    for (let index = 0; index < value.length; index++) {
      const component: unknown = value[index];
      if (!isRecord(component))
        throw specError(
          `${this.pathOf(field)}/${index}`,
          'A component must be an object.',
          this.surfaceId,
        );
      if (typeof component.id !== 'string')
        throw specError(
          `${this.pathOf(field)}/${index}/id`,
          missingIdMessage(index),
          this.surfaceId,
        );
    }
    return value as ComponentInstance[];
  }
}
