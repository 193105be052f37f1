/**
 * `accessibility_check`: the case's `surface` (a root component with its descendants under
 * `components`) built on a surface of the case's version, and each node of
 * `assertions.accessibilityTree` compared with the resolved `accessibility` attributes of that
 * component (subset rule). The `axeCore` rule lists need a DOM: the renderer packages run them.
 */
import { isRecord } from '../../../protocol/guards.js';
import type { ConformanceActionHandler } from '../conformance-action.js';
import { findSubsetMismatch } from '../match-expected.js';
import { resolveSurfaceNodes } from '../resolve-nodes.js';
import { runMessageSteps } from '../run-message-steps.js';

const SURFACE_ID = 'accessibility';

/** The `accessibility_check` handler. */
export const accessibilityCheck: ConformanceActionHandler = ({ testCase, version, context }) => {
  const { components: nested, ...root } = testCase.surface ?? {};
  const components = [
    root,
    ...Object.entries(isRecord(nested) ? nested : {}).map(([id, body]) => ({
      id,
      ...(body as object),
    })),
  ];
  const envelope = version === 'v1.0' ? 'v1.0' : 'v0.9';
  const messages = [
    { version: envelope, createSurface: { surfaceId: SURFACE_ID, catalogId: 'basic' } },
    { version: envelope, updateComponents: { surfaceId: SURFACE_ID, components } },
  ];
  const { client, mismatches } = runMessageSteps(
    { ...testCase, messages, expect: undefined, expectError: undefined },
    version,
    context,
    { strict: false, resolveBindings: false },
  );
  const nodes = resolveSurfaceNodes(client, SURFACE_ID);
  const tree = testCase.assertions?.accessibilityTree ?? {};
  for (const [id, expected] of Object.entries(tree)) {
    const node = nodes.get(id);
    if (!node) {
      mismatches.push(`component ${id} missing`);
      continue;
    }
    const mismatch = findSubsetMismatch(node.props.accessibility ?? {}, expected, `/${id}`);
    if (mismatch) mismatches.push(`accessibility ${mismatch}`);
  }
  return mismatches;
};
