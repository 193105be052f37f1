/**
 * THE one table of v1.0 spellings that are still moving upstream (digest `a2ui-v1.md` §0, §10).
 *
 * The snapshot we implement (`specification/v1_0` of 2026-08-20) writes `"version": "v1.0"` and
 * bare keys (`path`, `call`, `catalogId`, …). Later drafts publish `"version": "1.0"` and
 * `@`-prefixed reserved keys (`@path`, `@call`, `@catalogId`, `@accessibility`, `@metadata`,
 * `@checks`; `@@x` escapes a literal key `@x`). We READ both; we WRITE what the first entries say.
 * When the final spec settles, change the order of {@link V1_0_ENVELOPE_VERSIONS} or flip
 * {@link V1_0_WRITES_AT_KEYS}: a one-line change. `docs/protocol-versions.md` explains the choice.
 */

/** Envelope `version` spellings of v1.0; the FIRST is written. */
export const V1_0_ENVELOPE_VERSIONS: readonly string[] = Object.freeze(['v1.0', '1.0']);

/** Whether we write the drafted `@`-prefixed keys (false: the snapshot's bare keys). */
export const V1_0_WRITES_AT_KEYS = false;

/** Drafted `@`-prefixed reserved keys → the snapshot's bare keys, read as aliases. */
export const V1_0_RESERVED_KEY_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  '@path': 'path',
  '@call': 'call',
  '@catalogId': 'catalogId',
  '@accessibility': 'accessibility',
  '@metadata': 'metadata',
  '@checks': 'checks',
});

/** Prefix that escapes a literal key starting with `@` (`@@x` is the key `@x`). */
export const V1_0_AT_ESCAPE = '@@';
