/**
 * Inlining of `$ref`s in catalog schemas, as the official SDKs' `Catalog.from_json` does
 * (conformance `core/catalog.yaml`): local `#/$defs/…` pointers and refs into the common types
 * document become copies of what they point at, so a catalog reads without its neighbours.
 */
import { isRecord, setOwn } from '../protocol/guards.js';
import commonTypesV09 from '../validation/schemas/json/common_types.json' with { type: 'json' };

/** A JSON Schema object. */
export type JsonSchema = Record<string, unknown>;

/** Options of {@link inlineSchemaRefs}. */
export interface InlineSchemaRefsOptions {
  /** The document `#/…` refs resolve in (the catalog itself). @default the schema being inlined */
  root?: JsonSchema;
  /**
   * Further documents by `$id`: a ref `<id>#/pointer` (or a relative one whose file name matches
   * the id's last segment, e.g. `common_types.json#/$defs/Color`) resolves into it.
   * @default v0.9 `common_types.json` (`COMMON_TYPES_REFERENCES`)
   */
  references?: Readonly<Record<string, JsonSchema>>;
}

/** The documents refs resolve into by default: v0.9 `common_types.json`, by its `$id`. */
export const COMMON_TYPES_REFERENCES: Readonly<Record<string, JsonSchema>> = {
  [(commonTypesV09 as JsonSchema).$id as string]: commonTypesV09 as JsonSchema,
};

const decodeSegment = (segment: string): string =>
  decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');

function follow(document: JsonSchema, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return document;
  let node: unknown = document;
  for (const segment of pointer.replace(/^\//, '').split('/')) {
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    const key = decodeSegment(segment);
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function findDocument(
  base: string,
  references: Readonly<Record<string, JsonSchema>>,
): JsonSchema | undefined {
  const exact = references[base];
  if (exact) return exact;
  // A relative name (`common_types.json`) names the reference whose id ends with it.
  const name = base.slice(base.lastIndexOf('/') + 1);
  for (const [id, document] of Object.entries(references))
    if (id.slice(id.lastIndexOf('/') + 1) === name) return document;
  return undefined;
}

/**
 * Returns a copy of `schema` where every resolvable `$ref` is replaced by (a copy of) its target,
 * itself inlined; keys beside the `$ref` are kept and win over the target's. Refs that cannot be
 * resolved (unknown documents, missing pointers) and refs that would recurse forever stay as
 * they are. The input is never modified.
 *
 * @param schema - A component or function schema (or any JSON Schema).
 * @param options - See {@link InlineSchemaRefsOptions}.
 * @returns The inlined copy.
 *
 * @example
 * ```ts
 * inlineSchemaRefs({ $ref: 'https://a2ui.org/specification/v0_9/common_types.json#/$defs/ComponentId' });
 * // → { type: 'string', description: 'The unique identifier for a component, …' }
 * ```
 */
export function inlineSchemaRefs(schema: unknown, options: InlineSchemaRefsOptions = {}): unknown {
  const references = options.references ?? COMMON_TYPES_REFERENCES;
  const root = options.root ?? (isRecord(schema) ? schema : {});
  // `active` holds the refs being expanded on the current path: a ref met again is a cycle.
  const visit = (node: unknown, document: JsonSchema, active: ReadonlySet<string>): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, document, active));
    if (!isRecord(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string') {
      const hash = ref.indexOf('#');
      const base = hash < 0 ? ref : ref.slice(0, hash);
      const target = base === '' ? document : findDocument(base, references);
      const key = `${base === '' ? (document.$id ?? '') : base}#${hash < 0 ? '' : ref.slice(hash + 1)}`;
      const resolved = target && follow(target, hash < 0 ? '' : ref.slice(hash + 1));
      if (isRecord(resolved) && !active.has(key)) {
        const inlined = visit(resolved, target!, new Set([...active, key])) as JsonSchema;
        const { $ref: _ref, ...siblings } = node;
        const rest = visit(siblings, document, active) as JsonSchema;
        return { ...inlined, ...rest };
      }
    }
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node))
      setOwn(out, key, visit(value, document, active));
    return out;
  };
  return visit(schema, root, new Set());
}
