/**
 * Checks a case's `expect.surfaces` against the engine's state, with the reference harness's
 * rules: `exists`, `theme`, `sendDataModel` and `dataModel` compared whole; `components` (a map by
 * id or a list with ids) by type and by each expected property, resolved (a list also fixes the
 * component count); `validationResult` by the resolved checks of each instance.
 */
import type { A2uiClient } from '../../client/a2ui-client.js';
import { isRecord } from '../../protocol/guards.js';
import { jsonEquals, show } from './match-expected.js';
import { type ResolvedNode, resolveSurfaceNodes } from './resolve-nodes.js';

/**
 * Where the client's surfaces differ from `expected`.
 *
 * @param client - the client that processed the case's messages
 * @param expected - the case's `expect` (`{surfaces: {id: …}}`); other keys are ignored
 * @returns one line per mismatch, empty when the state is as expected
 */
export function findSurfaceMismatches(client: A2uiClient, expected: unknown): string[] {
  if (!isRecord(expected) || !isRecord(expected.surfaces)) return [];
  const problems: string[] = [];
  for (const [surfaceId, want] of Object.entries(expected.surfaces)) {
    if (!isRecord(want)) continue;
    const surface = client.processor.getSurface(surfaceId);
    if (want.exists === false) {
      if (surface) problems.push(`surface ${surfaceId}: expected not to exist`);
      continue;
    }
    if (!surface) {
      problems.push(`surface ${surfaceId}: missing`);
      continue;
    }
    const whole: Array<[string, unknown]> = [
      ['theme', surface.theme],
      ['sendDataModel', surface.sendDataModel],
      ['dataModel', surface.dataModel.getSnapshot()],
    ];
    for (const [key, actual] of whole) {
      if (key in want && !jsonEquals(actual ?? null, want[key] ?? null))
        problems.push(
          `surface ${surfaceId} ${key}: expected ${show(want[key])}, got ${show(actual)}`,
        );
    }
    if (want.components !== undefined || want.validationResult !== undefined) {
      const nodes = resolveSurfaceNodes(client, surfaceId);
      problems.push(...componentMismatches(client, surfaceId, nodes, want.components));
      problems.push(...validationMismatches(surfaceId, nodes, want.validationResult));
    }
  }
  return problems;
}

function componentMismatches(
  client: A2uiClient,
  surfaceId: string,
  nodes: ReadonlyMap<string, ResolvedNode>,
  expected: unknown,
): string[] {
  const entries: Array<[string, unknown]> = Array.isArray(expected)
    ? expected.filter(isRecord).map((item) => [String(item.id), item])
    : isRecord(expected)
      ? Object.entries(expected)
      : [];
  const problems: string[] = [];
  const store = client.processor.getSurface(surfaceId)?.components;
  for (const [id, want] of entries) {
    const node = nodes.get(id);
    if (!node) {
      problems.push(
        `surface ${surfaceId}: component ${id} missing (have ${[...nodes.keys()].join(', ') || 'none'})`,
      );
      continue;
    }
    if (!isRecord(want)) continue;
    if ('component' in want && node.type !== want.component)
      problems.push(
        `component ${id}: expected type ${show(want.component)}, got ${show(node.type)}`,
      );
    for (const [key, value] of Object.entries(want)) {
      if (key === 'id' || key === 'component') continue;
      const raw = store?.get(id)?.properties[key];
      if (!propertyMatches(node.props[key], raw, value))
        problems.push(
          `component ${id}.${key}: expected ${show(value)}, got ${show(node.props[key])}`,
        );
    }
  }
  if (
    Array.isArray(expected) &&
    store &&
    entries.every(([id]) => store.has(id)) &&
    store.size !== entries.length
  )
    problems.push(`surface ${surfaceId}: expected ${entries.length} components, got ${store.size}`);
  return problems;
}

/** A property matches resolved, as sent, or in its text form (`"0"` for the number 0). */
function propertyMatches(resolved: unknown, raw: unknown, expected: unknown): boolean {
  if (jsonEquals(resolved, expected) || jsonEquals(raw, expected)) return true;
  return (
    typeof expected !== 'object' &&
    resolved !== undefined &&
    typeof resolved !== 'object' &&
    String(resolved) === String(expected)
  );
}

function validationMismatches(
  surfaceId: string,
  nodes: ReadonlyMap<string, ResolvedNode>,
  expected: unknown,
): string[] {
  if (!isRecord(expected)) return [];
  const problems: string[] = [];
  for (const [id, want] of Object.entries(expected)) {
    const node = nodes.get(id);
    if (!node) {
      problems.push(`surface ${surfaceId}: component ${id} missing`);
      continue;
    }
    const actual = validationResultOf(node);
    if (!jsonEquals(actual, want))
      problems.push(`validationResult of ${id}: expected ${show(want)}, got ${show(actual)}`);
  }
  return problems;
}

/**
 * A v1.0 `ValidationResult` (`{valid, code?, message?, severity?}`) of a node: its first failing
 * check, or `{valid: true}`.
 */
function validationResultOf(node: ResolvedNode): Record<string, unknown> {
  const validation = node.validation as typeof node.validation & {
    failures?: ReadonlyArray<{ message?: string; code?: string; severity?: string }>;
  };
  if (validation.isValid) return { valid: true };
  const failure = validation.failures?.[0];
  const result: Record<string, unknown> = { valid: false };
  if (failure?.code !== undefined) result.code = failure.code;
  result.message = failure?.message ?? validation.messages[0];
  result.severity = failure?.severity ?? 'error';
  return result;
}
