/**
 * Protocol versions by envelope `version` string: the one lookup `MessageProcessor` does per
 * message to route it (issue 19).
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { describeEchoedValue } from '../errors/describe-echoed-value.js';
import type { ProtocolVersion } from './protocol-version.js';

/**
 * The message of the error for a `version` no registered module reads; the wording of the
 * conformance suite ("Unsupported protocol version 'v99.0'"). The offending value is shown cut to
 * its first 64 characters (an array or object by its type only), never whole.
 *
 * @param version - The envelope's `version` as received.
 * @param supported - The `version` values the entry point accepts (versions read without one,
 *   such as v0.8, do not belong here: a message saying `"version": "v0.8"` is refused).
 * @param versionless - Versions the entry point reads from messages without `version`; named in
 *   a note so the reader learns how to send them.
 * @example
 * ```ts
 * unsupportedVersionMessage('v99.0', ['v0.9', 'v1.0'], ['v0.8']);
 * // Unsupported protocol version 'v99.0'. Supported: "v0.9", "v1.0" (v0.8 messages carry no "version").
 * ```
 */
export function unsupportedVersionMessage(
  version: unknown,
  supported: readonly string[],
  versionless: readonly string[] = [],
): string {
  const list = supported.map((name) => `"${name}"`).join(', ');
  const note =
    versionless.length === 0 ? '' : ` (${versionless.join(', ')} messages carry no "version")`;
  return `Unsupported protocol version ${describeEchoedValue(version)}. Supported: ${list}${note}.`;
}

/**
 * Ordered set of {@link ProtocolVersion} modules, looked up by any envelope spelling.
 *
 * @example
 * ```ts
 * const versions = new ProtocolVersionRegistry([v09, v091, v10]);
 * versions.find('1.0')?.name; // "v1.0"
 * ```
 */
export class ProtocolVersionRegistry {
  readonly #byEnvelope = new Map<string, ProtocolVersion>();
  readonly #versions: ProtocolVersion[] = [];

  constructor(versions: Iterable<ProtocolVersion> = []) {
    for (const version of versions) this.register(version);
  }

  /**
   * Adds `version`, or replaces the module of the same `name`. Every envelope spelling it lists
   * now routes to it.
   */
  register(version: ProtocolVersion): this {
    const index = this.#versions.findIndex((entry) => entry.name === version.name);
    if (index >= 0) {
      for (const spelling of this.#versions[index]!.envelopeVersions)
        this.#byEnvelope.delete(spelling);
      this.#versions[index] = version;
    } else {
      this.#versions.push(version);
    }
    for (const spelling of version.envelopeVersions) this.#byEnvelope.set(spelling, version);
    return this;
  }

  /** The module reading envelope `version`, or `undefined`. */
  find(version: unknown): ProtocolVersion | undefined {
    return typeof version === 'string' ? this.#byEnvelope.get(version) : undefined;
  }

  /**
   * The module reading envelope `version`.
   * @throws A2uiError `VALIDATION_FAILED` (path `/version`): "Unsupported protocol version '…'"
   */
  get(version: unknown): ProtocolVersion {
    const found = this.find(version);
    if (found) return found;
    throw new A2uiError(
      'VALIDATION_FAILED',
      unsupportedVersionMessage(version, this.envelopeNames),
      {
        path: '/version',
      },
    );
  }

  /**
   * The version-less module (no `envelopeVersions`, v0.8) that has a message kind among the keys
   * of `message`, for a message without `version`.
   */
  findVersionless(message: Readonly<Record<string, unknown>>): ProtocolVersion | undefined {
    for (const version of this.#versions) {
      if (version.envelopeVersions.length > 0) continue;
      for (const key of Object.keys(message))
        if (version.agentMessageKinds.includes(key)) return version;
    }
    return undefined;
  }

  /** The module named `name` (`"v0.9"`, …), whatever spellings it reads. */
  byName(name: string): ProtocolVersion | undefined {
    return this.#versions.find((entry) => entry.name === name);
  }

  /** Canonical names, in registration order (oldest built-in first). */
  get names(): string[] {
    return this.#versions.map((entry) => entry.name);
  }

  /** Names of the versions an envelope `version` selects (all but version-less v0.8). */
  get envelopeNames(): string[] {
    return this.#versions
      .filter((entry) => entry.envelopeVersions.length > 0)
      .map((entry) => entry.name);
  }

  /** Names of the versions read from messages without `version` (v0.8). */
  get versionlessNames(): string[] {
    return this.#versions
      .filter((entry) => entry.envelopeVersions.length === 0)
      .map((entry) => entry.name);
  }

  values(): IterableIterator<ProtocolVersion> {
    return this.#versions.values();
  }
}
