/**
 * The catalog check of what an agent sends (`ConnectionSessionOptions.validateOutgoing`), judged
 * the way the renderer will judge it: v0.9 and v0.9.1 messages against v0.9's schema with their
 * surface's built-in catalog, v1.0 components each against the v1.0 catalog it resolves to (its
 * own `catalogId`, else the surface's).
 */
import { isRecord } from '../protocol/guards.js';
import { getBuiltinCatalogValidator } from '../validation/validator-registry.js';
import { hoistInlineTemplates } from '../versions/hoist-inline-templates.js';
import { normalizeReservedKeys } from '../versions/normalize-reserved-keys.js';
import type { ProtocolVersion } from '../versions/protocol-version.js';
import { v10 } from '../versions/v1-0.js';

/**
 * Checks an outgoing message; returns its first problem (`path` a JSON Pointer into the message)
 * or `undefined`. It gets v0.9 and v0.9.1 messages with `"version": "v0.9"` (one schema), v1.0
 * messages with `"version": "v1.0"` and bare reserved keys (`path`, not `@path`), and the catalog
 * id of the message's surface (`createSurface.catalogId`, or the one its surface was created with)
 * when known. v0.8 messages are checked by the v0.8 module and never reach it.
 */
export type OutgoingValidator = (
  message: unknown,
  catalogId: string | undefined,
) => { path: string; message: string } | undefined;

const V1_0_WRITTEN = v10.envelopeVersions[0]!;

/** The built-in v1.0 catalog's validator by catalog id, or `undefined`. */
function v10BuiltinValidator(catalogId: string) {
  const id = v10.catalogAliases[catalogId] ?? catalogId;
  return v10.builtinCatalogs().find((catalog) => catalog.catalogId === id)?.validator;
}

/**
 * The components of a v1.0 `createSurface` / `updateComponents`, each against the built-in
 * catalog it resolves to (a component of another catalog is left to that catalog's owner). An
 * inline template is hoisted as the reader does and its problems point at the template.
 */
function checkV10Components(
  message: Record<string, unknown>,
  catalogId: string | undefined,
): { path: string; message: string } | undefined {
  const kind = 'createSurface' in message ? 'createSurface' : 'updateComponents';
  const body = message[kind];
  if (!isRecord(body) || !Array.isArray(body.components)) return undefined;
  for (const [index, component] of body.components.entries()) {
    if (!isRecord(component)) continue;
    const at = `/${kind}/components/${index}`;
    const hoisted = hoistInlineTemplates([component as never]);
    for (const [position, part] of hoisted.entries()) {
      const own = typeof part.catalogId === 'string' ? part.catalogId : catalogId;
      const check = own === undefined ? undefined : v10BuiltinValidator(own)?.checkComponent(part);
      if (!check || check.status === 'valid') continue;
      const [issue] = check.issues;
      return position === 0
        ? { path: at + (issue?.path ?? ''), message: issue?.message ?? 'Invalid component.' }
        : {
            path: `${at}/template`,
            message: `Inline template component "${part.id}": ${issue?.message ?? 'Invalid component.'}`,
          };
    }
  }
  return undefined;
}

/**
 * The default {@link OutgoingValidator}: the full v0.9 schema when the surface uses the built-in
 * basic or minimal catalog; for v1.0, every component against the built-in v1.0 catalog it
 * resolves to (the envelope and fields were checked by the v1.0 reader). Messages of other
 * catalogs pass unchecked. Compose it into a custom validator to keep these checks.
 *
 * @example
 * ```ts
 * const validateOutgoing: OutgoingValidator = (message, catalogId) =>
 *   catalogId === MY_CATALOG_ID
 *     ? myValidator.validateServerMessage(message)[0]
 *     : validateOutgoingWithBuiltinCatalogs(message, catalogId);
 * ```
 */
export const validateOutgoingWithBuiltinCatalogs: OutgoingValidator = (message, catalogId) => {
  if (!isRecord(message)) return undefined;
  if (message.version === V1_0_WRITTEN) {
    const hasComponents = 'createSurface' in message || 'updateComponents' in message;
    return hasComponents ? checkV10Components(message, catalogId) : undefined;
  }
  return catalogId === undefined
    ? undefined
    : getBuiltinCatalogValidator(catalogId)?.validateServerMessage(message)[0];
};

/**
 * `message` as an {@link OutgoingValidator} reads it, or `undefined` for a version no validator
 * reads (v0.8). Only components are unaliased, as the v1.0 reader does: a data model key may
 * start with `@`.
 */
export function messageForValidators(
  version: ProtocolVersion,
  message: Record<string, unknown>,
): Record<string, unknown> | undefined {
  if (version.family === 'v0.9')
    return message.version === 'v0.9' ? message : { ...message, version: 'v0.9' };
  if (version.family !== v10.family) return undefined;
  let read: Record<string, unknown> =
    message.version === V1_0_WRITTEN ? message : { ...message, version: V1_0_WRITTEN };
  for (const kind of ['createSurface', 'updateComponents']) {
    const body = message[kind];
    if (!isRecord(body) || !('components' in body)) continue;
    const components = normalizeReservedKeys(body.components, `/${kind}/components`);
    if (components !== body.components) read = { ...read, [kind]: { ...body, components } };
  }
  return read;
}
