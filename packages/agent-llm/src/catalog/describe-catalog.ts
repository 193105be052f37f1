/**
 * A catalog document in words, for the system prompt: every component with its properties (type,
 * required, enum values, default, description) and every function with its arguments and return
 * type, read from the schema so custom catalogs are described the same way.
 */
import { isRecord } from '@a2ui-ts/core';
import {
  type CatalogDocument,
  type JsonSchema,
  parseSchemaRef,
  resolveSchemaTarget,
  type SchemaOrigin,
} from './catalog-document.js';

/** How the common types read in the prompt; `*` marks a dynamic value (literal, path or call). */
const COMMON_TYPE_WORDS: Readonly<Record<string, string>> = {
  ComponentId: 'component id',
  ChildList: 'child ids ["a","b"] or template {"componentId","path"}',
  DynamicString: 'string*',
  DynamicNumber: 'number*',
  DynamicBoolean: 'boolean*',
  DynamicStringList: 'string[]*',
  DynamicValue: 'value*',
  DataBinding: '{"path"}',
  FunctionCall: '{"call","args"}',
  Action: 'action',
  CheckRule: '{"condition": boolean*, "message"}',
  Checkable: '{"checks"}',
  AccessibilityAttributes: '{"label": string*, "description": string*}',
};

const MAX_DESCRIPTION_CHARS = 600;
const MAX_DEPTH = 6;

/**
 * Describes `document` for a model: a heading per component and one line per property, then one
 * line per function.
 *
 * @example
 * ```ts
 * describeCatalog(readCatalogDocument(minimalCatalog));
 * // '… ### Text\n- text (required): string* — …'
 * ```
 */
export function describeCatalog(document: CatalogDocument): string {
  const lines: string[] = [`Catalog ${document.catalogId}.`];
  const shared = new Map<string, JsonSchema>();
  const components: string[] = [];
  for (const [type, schema] of Object.entries(document.components)) {
    const parts = componentParts(document, schema);
    for (const [name, def] of parts.shared) shared.set(name, def);
    components.push(`### ${type}`);
    if (typeof schema.description === 'string') components.push(clip(schema.description));
    for (const [name, property] of Object.entries(parts.properties)) {
      if (name === 'component') continue;
      components.push(propertyLine(document, name, property, parts.required.has(name)));
    }
    if (parts.checkable)
      components.push('- checks: {"condition": boolean*, "message"}[] — client-side validation.');
  }
  const common = [
    'id (required): component id, unique in the surface',
    'accessibility: {"label": string*, "description": string*}',
  ];
  for (const def of shared.values()) {
    for (const [name, property] of Object.entries(propertiesOf(def)))
      common.push(propertyLine(document, name, property, false).slice(2));
  }
  lines.push(`Every component has: ${common.map((entry) => entry.replace(/\.$/, '')).join('; ')}.`);
  lines.push('', '## Components', ...components);
  const functions = Object.entries(document.functions);
  lines.push('', '## Functions');
  if (functions.length === 0) lines.push('This catalog has no functions.');
  for (const [name, schema] of functions) lines.push(functionLine(document, name, schema));
  return lines.join('\n');
}

interface ComponentParts {
  properties: Record<string, unknown>;
  required: Set<string>;
  checkable: boolean;
  shared: Map<string, JsonSchema>;
}

function componentParts(document: CatalogDocument, schema: JsonSchema): ComponentParts {
  const parts: ComponentParts = {
    properties: {},
    required: new Set(),
    checkable: false,
    shared: new Map(),
  };
  const branches = Array.isArray(schema.allOf) ? [...schema.allOf, schema] : [schema];
  for (const branch of branches) {
    if (!isRecord(branch)) continue;
    if (typeof branch.$ref === 'string') {
      const target = parseSchemaRef(branch.$ref, 'catalog');
      if (target?.origin === 'common') {
        if (target.name === 'Checkable') parts.checkable = true;
      } else if (target) {
        const def = resolveSchemaTarget(document, target);
        if (def) parts.shared.set(target.name, def);
      }
      continue;
    }
    Object.assign(parts.properties, propertiesOf(branch));
    if (Array.isArray(branch.required))
      for (const name of branch.required) if (typeof name === 'string') parts.required.add(name);
  }
  return parts;
}

function propertiesOf(schema: JsonSchema): Record<string, unknown> {
  return isRecord(schema.properties) ? schema.properties : {};
}

function propertyLine(
  document: CatalogDocument,
  name: string,
  schema: unknown,
  required: boolean,
): string {
  const type = summarize(document, schema, 'catalog', 0);
  const notes: string[] = [];
  if (isRecord(schema)) {
    if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
    if (typeof schema.description === 'string') notes.push(clip(schema.description));
  }
  return `- ${name}${required ? ' (required)' : ''}: ${type}${notes.length > 0 ? ` — ${notes.join('. ')}` : ''}`;
}

function functionLine(document: CatalogDocument, name: string, schema: JsonSchema): string {
  const properties = propertiesOf(schema);
  const args = isRecord(properties.args) ? properties.args : {};
  const required = new Set(Array.isArray(args.required) ? args.required : []);
  const parameters = Object.entries(propertiesOf(args)).map(
    ([arg, argSchema]) =>
      `${arg}${required.has(arg) ? '' : '?'}: ${summarize(document, argSchema, 'catalog', 0)}`,
  );
  const returns = isRecord(properties.returnType) ? properties.returnType.const : undefined;
  const description =
    typeof schema.description === 'string' ? ` — ${clip(schema.description)}` : '';
  return `- ${name}(${parameters.join(', ')}) → ${typeof returns === 'string' ? returns : 'any'}${description}`;
}

/** A short type expression for `schema`. */
function summarize(
  document: CatalogDocument,
  schema: unknown,
  origin: SchemaOrigin,
  depth: number,
): string {
  if (schema === true || schema === undefined) return 'any';
  if (!isRecord(schema) || depth > MAX_DEPTH) return 'any';
  if (typeof schema.$ref === 'string') {
    const target = parseSchemaRef(schema.$ref, origin);
    if (target?.origin === 'common') return COMMON_TYPE_WORDS[target.name] ?? target.name;
    const resolved = target && resolveSchemaTarget(document, target);
    return resolved ? summarize(document, resolved, 'catalog', depth + 1) : 'any';
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum))
    return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches))
      return branches.map((branch) => summarize(document, branch, origin, depth + 1)).join(' | ');
  }
  if (schema.type === 'array') {
    const item = summarize(document, schema.items, origin, depth + 1);
    return item.includes(' ') ? `(${item})[]` : `${item}[]`;
  }
  const properties = propertiesOf(schema);
  if (schema.type === 'object' || Object.keys(properties).length > 0) {
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const fields = Object.entries(properties).map(
      ([key, value]) =>
        `"${key}"${required.has(key) ? '' : '?'}: ${summarize(document, value, origin, depth + 1)}`,
    );
    return fields.length > 0 ? `{${fields.join(', ')}}` : 'object';
  }
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return 'any';
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_DESCRIPTION_CHARS
    ? flat
    : `${flat.slice(0, MAX_DESCRIPTION_CHARS - 1)}…`;
}
