/**
 * The one Ajv configuration every A2UI validator is built with, at run time or ahead of time.
 * Importing this module pulls in the Ajv compiler; the precompiled validators do not need it.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { discriminateCatalogUnions, routeUnions } from './discriminate-unions.js';

/** Options of {@link createA2uiAjv}. */
export interface CreateA2uiAjvOptions {
  /**
   * Keep generated source on every compiled function, as `ajv/dist/standalone` needs (ESM output).
   * @default false
   */
  source?: boolean;
}

/**
 * An Ajv instance configured like the official v0.9 test runner (digest §10.3): draft 2020-12,
 * `strict: false` (the catalogs use the OpenAPI `discriminator` keyword, which is then ignored),
 * first error only (issues are worded by `diagnose-schema.ts`, so collecting every Ajv error would
 * only slow the valid path), and `ajv-formats` (`date-time`, `uri`, …).
 *
 * `inlineRefs: true` (Ajv's default) inlines a `$ref` to a schema without references of its own
 * instead of calling a shared function: component validation is about 20% faster, for 4% more
 * code (1.3 KB gzip in the basic catalog); verdicts are identical.
 *
 * Compiling with it calls `new Function`, so do it in Node or at build time, never on a page with a
 * strict Content-Security-Policy.
 *
 * @example
 * ```ts
 * const ajv = createA2uiAjv();
 * const validate = ajv.compile({ type: 'string', format: 'uri' });
 * ```
 */
export function createA2uiAjv(options: CreateA2uiAjvOptions = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: false,
    inlineRefs: true,
    ...(options.source ? { code: { source: true, esm: true, lines: true } } : {}),
  });
  addFormats(ajv);
  return ajv;
}

/** The schema documents of one catalog's validators, for {@link createCatalogAjv}. */
export interface CatalogAjvSchemas extends CreateA2uiAjvOptions {
  /** `common_types.json`. */
  readonly commonTypes: object;
  /** Further documents the catalog `$ref`s by absolute `$id`, added as they are. */
  readonly references?: readonly object[];
  /** The prepared catalog schema (its `$id` the catalog alias). */
  readonly catalog: Record<string, unknown>;
  /** `server_to_client.json`. */
  readonly serverToClient: object;
}

/**
 * An Ajv instance ({@link createA2uiAjv}) holding the documents a catalog's validators compile
 * against, as the run-time compiler (`compileCatalogValidator`) and the module generator both need
 * them: Ajv gets verdict-preserving rewrites of the unions (`discriminateCatalogUnions`,
 * `routeUnions`); issue wording keeps reading the originals.
 *
 * @throws Ajv's error when a document does not compile
 */
export function createCatalogAjv(schemas: CatalogAjvSchemas): Ajv2020 {
  const ajv = createA2uiAjv({ source: schemas.source });
  // Unions may route on what another document says (v1.0 `FunctionCall` on the catalog's
  // `anyFunction`), so each document is routed knowing the others.
  const catalog = discriminateCatalogUnions(schemas.catalog);
  const documents = [schemas.commonTypes, catalog, schemas.serverToClient];
  ajv.addSchema(routeUnions(schemas.commonTypes, documents));
  for (const reference of schemas.references ?? []) ajv.addSchema(reference);
  ajv.addSchema(routeUnions(catalog, documents));
  ajv.addSchema(routeUnions(schemas.serverToClient, documents));
  return ajv;
}
