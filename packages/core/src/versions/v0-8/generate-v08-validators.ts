/**
 * Builds `../../validation/generated/v0-8.js`, the precompiled v0.8 validators. Node-only (runs the
 * Ajv compiler); called by `scripts/generate-validators.ts`, never imported by the entry.
 */
import standaloneCode from 'ajv/dist/standalone/index.js';
import { createA2uiAjv } from '../../validation/create-ajv.js';
import clientToServer from '../../validation/schemas/v0_8/client_to_server.json' with {
  type: 'json',
};
import serverToClient from '../../validation/schemas/v0_8/server_to_client.json' with {
  type: 'json',
};
import standardCatalog from '../../validation/schemas/v0_8/standard_catalog_definition.json' with {
  type: 'json',
};
import {
  finishStandaloneModule,
  type GenerateModuleOptions,
  stripSchemaAnnotations,
} from '../../validation/standalone-codegen.js';
import {
  buildV08CatalogSchema,
  V08_CLIENT_TO_SERVER_SCHEMA_ID,
  V08_SERVER_TO_CLIENT_SCHEMA_ID,
} from './v08-schemas.js';

const STANDARD_SCHEMA_ID =
  'https://a2ui.org/specification/v0_8/server_to_client_with_standard_catalog.json';

/** Declarations of the generated module. */
export const V08_MODULE_DTS = `import type { StandaloneValidateFunction } from '../catalog-validator.js';
type Schema = { readonly [keyword: string]: unknown };
/** Validates a v0.8 server→client message, components of any catalog (\`server_to_client.json\`). */
export declare const serverMessage: StandaloneValidateFunction;
/** Validates a v0.8 server→client message against the v0.8 standard catalog. */
export declare const standardServerMessage: StandaloneValidateFunction;
/** Validates a v0.8 client→server message (\`client_to_server.json\`). */
export declare const clientMessage: StandaloneValidateFunction;
/** The schemas, annotations stripped, used to word validation issues. */
export declare const schemas: { readonly serverToClient: Schema; readonly standardServerToClient: Schema };
`;

/**
 * The source of `generated/v0-8.js`. The standard-catalog schema is built from
 * `standard_catalog_definition.json` by {@link buildV08CatalogSchema}, the same way custom
 * catalogs are, so that both word their errors alike.
 */
export function generateV08ValidatorModule(options: GenerateModuleOptions): string {
  const generic = {
    ...stripSchemaAnnotations(serverToClient),
    $id: V08_SERVER_TO_CLIENT_SCHEMA_ID,
  };
  const standard = buildV08CatalogSchema(
    generic,
    stripSchemaAnnotations(standardCatalog) as { components: Record<string, unknown> },
    STANDARD_SCHEMA_ID,
  );
  const client = { ...stripSchemaAnnotations(clientToServer), $id: V08_CLIENT_TO_SERVER_SCHEMA_ID };
  const ajv = createA2uiAjv({ source: true });
  ajv.addSchema(generic);
  ajv.addSchema(standard);
  ajv.addSchema(client);
  const code = standaloneCode(ajv, {
    serverMessage: V08_SERVER_TO_CLIENT_SCHEMA_ID,
    standardServerMessage: STANDARD_SCHEMA_ID,
    clientMessage: V08_CLIENT_TO_SERVER_SCHEMA_ID,
  });
  return finishStandaloneModule(
    code,
    options,
    `export const schemas = ${JSON.stringify({ serverToClient: generic, standardServerToClient: standard })};\n`,
  );
}
