/**
 * The validator a streaming-parser case describes: its simplified server-to-client schema and
 * catalog, compiled with core's Ajv configuration and worded with core's issue formatter.
 */
import { isRecord } from '../../protocol/guards.js';
import type { A2uiStreamValidator } from '../../streaming/stream-validator.js';
import { ajvErrorsToIssues } from '../../validation/ajv-errors-to-issues.js';
import { createA2uiAjv } from '../../validation/create-ajv.js';
import type { ValidationIssue } from '../../validation/validation-issue.js';

type Schema = Record<string, unknown>;

/** The `catalog` block of a streaming-parser case (`agent/streaming_parser.yaml`). */
export interface StreamingCatalogConfig {
  protocolVersion: string;
  s2cSchema?: string | Schema;
  commonTypesSchema?: string | Schema;
  catalogSchema?: Schema;
  customCuttableKeys?: string[];
}

const V09_BASE = 'https://a2ui.org/specification/v0_9/';

function schemaOf(
  value: string | Schema | undefined,
  loadJson: (path: string) => Schema,
): Schema | undefined {
  return typeof value === 'string' ? loadJson(value) : value;
}

/** The catalog as `catalog.json` next to the v0.9 schema, with an `anyComponent` union. */
function v09Catalog(catalog: Schema): Schema {
  const components = isRecord(catalog.components) ? catalog.components : {};
  const defs = isRecord(catalog.$defs) ? { ...catalog.$defs } : {};
  if (!('anyComponent' in defs)) {
    const names = Object.keys(components);
    defs.anyComponent =
      names.length === 0
        ? { not: {} }
        : { oneOf: names.map((name) => ({ $ref: `#/components/${name}` })) };
  }
  return { ...catalog, $id: `${V09_BASE}catalog.json`, $defs: defs };
}

/** v0.8 components are `{Type: properties}`: the type must be in the catalog, the properties match it. */
function v08ComponentIssues(
  message: Schema,
  checkers: Map<string, (data: unknown) => readonly ValidationIssue[]>,
): ValidationIssue[] {
  const update = message.surfaceUpdate;
  const components = isRecord(update) && Array.isArray(update.components) ? update.components : [];
  const issues: ValidationIssue[] = [];
  components.forEach((component: unknown, index) => {
    const definition = isRecord(component) ? component.component : undefined;
    if (!isRecord(definition)) return;
    const path = `/surfaceUpdate/components/${index}/component`;
    for (const [type, properties] of Object.entries(definition)) {
      const check = checkers.get(type);
      if (check === undefined) {
        issues.push({ path, message: `Unknown component type "${type}".`, keyword: 'component' });
        continue;
      }
      for (const issue of check(properties)) {
        issues.push({ ...issue, path: `${path}/${type}${issue.path}` });
      }
    }
  });
  return issues;
}

/**
 * Compiles a case's schemas into a stream validator.
 *
 * @throws Ajv's error when a schema does not compile
 */
export function createConformanceStreamValidator(
  config: StreamingCatalogConfig,
  loadJson: (path: string) => Schema,
): A2uiStreamValidator {
  const ajv = createA2uiAjv();
  const serverToClient = schemaOf(config.s2cSchema, loadJson) ?? {};
  const catalog = config.catalogSchema ?? {};
  const checkOf = (schema: unknown) => {
    const validate = ajv.compile(schema as Schema);
    return (data: unknown) =>
      validate(data) ? [] : ajvErrorsToIssues(validate.errors ?? [], data);
  };
  if (config.protocolVersion === 'v0.8') {
    const checkMessage = checkOf(serverToClient);
    const components = isRecord(catalog.components) ? catalog.components : {};
    const checkers = new Map(
      Object.entries(components).map(([type, schema]) => [type, checkOf(schema)]),
    );
    return (message) => {
      const issues = checkMessage(message);
      return issues.length > 0 ? issues : v08ComponentIssues(message, checkers);
    };
  }
  const commonTypes = schemaOf(config.commonTypesSchema, loadJson);
  if (commonTypes !== undefined) ajv.addSchema(commonTypes);
  ajv.addSchema(v09Catalog(catalog));
  return checkOf(serverToClient);
}
