/**
 * The stripped documents of each schema family, from the committed generated modules (no Ajv, no
 * `eval`): what catalog validators compile against and word their issues from. With them, the
 * code that words an issue from a schema (`diagnose-schema.ts`): a precompiled validator needs
 * both only when a message fails, so they share the chunk that loads then (`family-documents.ts`).
 */
import { schemas as v09Schemas } from './generated/common.js';
import { schemas as v10Schemas } from './generated/v1-0-common.js';
import { type SchemaFamily, V1_0_SCHEMA_FAMILY } from './schema-family.js';

export { createSchemaResolver, declaredProperties, diagnoseSchema } from './diagnose-schema.js';

type Schema = { readonly [keyword: string]: unknown };

/** A family's `common_types.json` and agent→renderer message schema. */
export interface FamilySchemas {
  readonly commonTypes: Schema;
  readonly serverMessage: Schema;
}

const V0_9: FamilySchemas = {
  commonTypes: v09Schemas.commonTypes,
  serverMessage: v09Schemas.serverToClient,
};
const V1_0: FamilySchemas = {
  commonTypes: v10Schemas.commonTypes,
  serverMessage: v10Schemas.agentToRenderer,
};

/** The documents of `family` (annotations stripped). */
export function familySchemas(family: SchemaFamily): FamilySchemas {
  return family === V1_0_SCHEMA_FAMILY ? V1_0 : V0_9;
}
