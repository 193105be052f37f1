import { A2UI_VERSION } from '../protocol/constants.js';
import { isRecord } from '../protocol/guards.js';
import { ajvErrorsToIssues, type SchemaErrorObject } from './ajv-errors-to-issues.js';
import type { createSchemaResolver, FormatDefinition, JsonSchema } from './diagnose-schema.js';
import { familyDocumentsModule } from './family-documents.js';
import type * as FamilySchemasModule from './family-schemas.js';
import { DEFAULT_MAX_DEPTH, findJsonViolation } from './find-depth-violation.js';
import { validatorRuntime } from './generated/runtime.js';
import { appendPointer, jsonTypeOf, quoteValue, valueAtPointer } from './quote-value.js';
import { schemaFamilyOfAlias } from './schema-family.js';
import type { ValidationIssue } from './validation-issue.js';

/**
 * A compiled validator as Ajv (or Ajv standalone) produces it: returns the verdict and leaves the
 * raw errors of the last call on `errors`.
 */
export interface StandaloneValidateFunction {
  (data: unknown): boolean;
  /** Errors of the last failing call, `null` after a passing one. */
  errors?: readonly SchemaErrorObject[] | null;
}

/**
 * What a precompiled catalog module exports: the built-in `generated/basic.js` and
 * `generated/minimal.js`, and modules written by `generateCatalogValidatorModule()`.
 */
export interface PrecompiledCatalogModule {
  /** The id messages name in `createSurface.catalogId`. */
  readonly catalogId: string;
  /** The catalog schema (`$id` aliased, annotations may be stripped), used to word issues. */
  readonly catalogSchema: { readonly [keyword: string]: unknown };
  /** Validates one server→client message (`server_to_client.json` with this catalog). */
  readonly serverMessage: StandaloneValidateFunction;
  /** Validates a theme object (`$defs/theme`). */
  readonly theme: StandaloneValidateFunction;
  /** One validator per component type (`components.<Name>`). */
  readonly components: { readonly [componentType: string]: StandaloneValidateFunction };
}

/**
 * Verdict of {@link CatalogValidator.checkComponent}, shaped for the spec's graceful-degradation
 * rules (digest §10.1): an unknown type renders a fallback; unknown properties are dropped and the
 * rest applied; a call of a function the catalog does not define is kept, like an unknown type
 * (the official renderers render such a component: the call evaluates to nothing, an action
 * calling it cannot run); anything else rejects the component. Issue paths are relative to the
 * component.
 */
export type ComponentCheck =
  | { status: 'valid' }
  | { status: 'unknown-type'; issues: ValidationIssue[] }
  | {
      status: 'unknown-properties';
      /** Property names the component's schema does not declare. */
      properties: string[];
      /** The component without those properties; it passes the schema. */
      sanitized: Record<string, unknown>;
      issues: ValidationIssue[];
    }
  | {
      status: 'unknown-functions';
      /** Every call of an unknown function: its name and the pointer of its `call` member. */
      functions: Array<{ name: string; path: string }>;
      /** Property names the component's schema does not declare (dropped), possibly none. */
      properties: string[];
      /**
       * The component without the unknown properties. Nothing else is wrong with it: the schema
       * walk found no problem but the unknown functions (whose arguments it cannot judge).
       */
      sanitized: Record<string, unknown>;
      issues: ValidationIssue[];
    }
  | { status: 'invalid'; issues: ValidationIssue[] };

/** Options of {@link CatalogValidator.validateServerMessage} and `checkComponent`. */
export interface CatalogValidateOptions {
  /**
   * Deepest allowed nesting of arrays/objects, checked before schema validation.
   * @default 64
   */
  maxDepth?: number;
  /**
   * The caller has already run `findJsonViolation(value, maxDepth)` on the value, or on the
   * message that contains it, and it found nothing: the validator does not walk it again.
   * `MessageProcessor` checks each message once this way.
   * @default false
   */
  jsonChecked?: boolean;
}

/**
 * Validates messages, components and themes against one catalog (digest §10). Get one from a
 * `ValidatorRegistry`, `createPrecompiledCatalogValidator()` or `compileCatalogValidator()`.
 *
 * @example
 * ```ts
 * const validator = defaultValidatorRegistry.get(BASIC_CATALOG_ID)!;
 * validator.validateServerMessage({ version: 'v0.9', deleteSurface: { surfaceId: 's1' } }); // []
 * validator.checkComponent({ id: 'x', component: 'Text', text: 'Hi', color: 'red' }).status; // 'unknown-properties'
 * ```
 */
export interface CatalogValidator {
  /** The catalog id this validator checks against. */
  readonly catalogId: string;
  /** Component type names, in catalog order. */
  readonly componentTypes: readonly string[];
  /** Function names, in catalog order. */
  readonly functionNames: readonly string[];
  /**
   * Validates one server→client message (spec §2) with this catalog's components, functions and
   * theme. Returns `[]` when valid; never throws.
   */
  validateServerMessage(message: unknown, options?: CatalogValidateOptions): ValidationIssue[];
  /** True when the catalog defines a component of this type. */
  hasComponent(type: string): boolean;
  /** Classifies one component object of an `updateComponents` message (spec §2.2, §5.1). */
  checkComponent(component: unknown, options?: CatalogValidateOptions): ComponentCheck;
  /** Validates a `createSurface.theme` object; `[]` when valid. */
  validateTheme(theme: unknown): ValidationIssue[];
  /**
   * False while a validator that loads on first need (`createLazyCatalogValidator`) has not
   * loaded; its checks then throw `MODULE_NOT_LOADED`. Absent on validators built eagerly.
   */
  readonly loaded?: boolean;
  /** Loads a validator that loads on first need; absent on validators built eagerly. */
  load?(): Promise<void>;
}

const VALID: ComponentCheck = Object.freeze({ status: 'valid' });

/** v0.8 server message names an agent trained on older docs still emits, with their v0.9 successors. */
const V08_SERVER_MESSAGES: Readonly<Record<string, string>> = {
  beginRendering: 'createSurface',
  surfaceUpdate: 'updateComponents',
  dataModelUpdate: 'updateDataModel',
};

const quoteList = (names: readonly string[]): string => {
  const quoted = names.map((name) => `"${name}"`);
  return quoted.length <= 1
    ? (quoted[0] ?? '')
    : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
};

const formats = validatorRuntime.fullFormats as Readonly<Record<string, FormatDefinition>>;

/**
 * Issues for the message envelope — object, `version`, exactly one message key, no extra keys —
 * which the schema's top-level `oneOf` reports as noise across all four message types. A v0.8
 * message name (`legacyNames`) gets a pointer to its v0.9 successor. Shared with the
 * client-message validator; `version` is the envelope version expected (v0.9's by default).
 */
export function envelopeIssues(
  message: unknown,
  kinds: readonly string[],
  what: string,
  legacyNames: Readonly<Record<string, string>> = V08_SERVER_MESSAGES,
  version: string = A2UI_VERSION,
): { issues: ValidationIssue[]; kind: string | undefined } {
  if (!isRecord(message)) {
    return {
      issues: [
        {
          path: '',
          keyword: 'type',
          message: `Expected an A2UI ${what} (a JSON object with "version" and one of ${quoteList(kinds)}), got ${jsonTypeOf(message)}.`,
        },
      ],
      kind: undefined,
    };
  }
  const issues: ValidationIssue[] = [];
  if (!('version' in message)) {
    issues.push({
      path: '/version',
      keyword: 'required',
      message: `Missing required property "version". Every A2UI message carries "version": "${version}".`,
    });
  } else if (message.version !== version) {
    issues.push({
      path: '/version',
      keyword: 'const',
      message: `Unsupported version ${quoteValue(message.version)}: ${version === A2UI_VERSION ? `this library speaks A2UI "${version}" only` : `this catalog's messages are A2UI "${version}"`}. Set "version": "${version}".`,
    });
  }
  const present = kinds.filter((kind) => kind in message);
  if (present.length === 0) {
    const legacy = Object.keys(message).find((key) => Object.hasOwn(legacyNames, key));
    const stranger = Object.keys(message).find((key) => key !== 'version');
    if (legacy) {
      issues.push({
        path: appendPointer('', legacy),
        keyword: 'oneOf',
        message: `"${legacy}" is an A2UI v0.8 message; v0.9 uses "${legacyNames[legacy]}" with a different shape.`,
      });
    } else if (stranger) {
      issues.push({
        path: appendPointer('', stranger),
        keyword: 'oneOf',
        message: `Unknown message type "${stranger}". A ${what} carries exactly one of ${quoteList(kinds)}.`,
      });
    } else {
      issues.push({
        path: '',
        keyword: 'oneOf',
        message: `Expected exactly one of ${quoteList(kinds)}.`,
      });
    }
    return { issues, kind: undefined };
  }
  if (present.length > 1) {
    issues.push({
      path: appendPointer('', present[1]!),
      keyword: 'oneOf',
      message: `A message carries exactly one of ${quoteList(kinds)}, found ${present.map((kind) => `"${kind}"`).join(' and ')}. Send them as separate messages.`,
    });
    return { issues, kind: undefined };
  }
  const kind = present[0]!;
  for (const key of Object.keys(message)) {
    if (key === 'version' || key === kind) continue;
    issues.push({
      path: appendPointer('', key),
      keyword: 'additionalProperties',
      message: `Unknown property "${key}" on a ${kind} message. Allowed properties: version, ${kind}.`,
    });
  }
  return { issues, kind };
}

/**
 * The unknown-function calls `issues` consist of, or `undefined` when anything else is wrong too
 * (or nothing at all was found): only then does a component degrade instead of failing.
 */
function unknownFunctionCalls(
  issues: readonly ValidationIssue[],
  component: Record<string, unknown>,
): Array<{ name: string; path: string }> | undefined {
  if (issues.length === 0) return undefined;
  const calls: Array<{ name: string; path: string }> = [];
  for (const issue of issues) {
    if (issue.keyword !== 'call') return undefined;
    const name = valueAtPointer(component, issue.path);
    if (typeof name !== 'string') return undefined;
    calls.push({ name, path: issue.path });
  }
  return calls;
}

/** Guarantees at least one issue for an invalid value. */
export function explainFailure(
  explained: ValidationIssue[] | undefined,
  errors: readonly SchemaErrorObject[] | null | undefined,
  data: unknown,
): ValidationIssue[] {
  if (explained && explained.length > 0) return explained;
  const fallback = ajvErrorsToIssues(errors ?? [], data);
  return fallback.length > 0
    ? fallback
    : [{ path: '', message: 'Value does not match the schema.' }];
}

/**
 * Builds a {@link CatalogValidator} from a precompiled catalog module; no `eval`, so it works under
 * a strict Content-Security-Policy. The built-in basic and minimal validators are made this way.
 *
 * @param module - The module's namespace object (`import * as m from './my-catalog.validator.js'`).
 * @returns A validator for `module.catalogId`.
 *
 * @example
 * ```ts
 * import * as myCatalog from './my-catalog.validator.js';
 * defaultValidatorRegistry.register(createPrecompiledCatalogValidator(myCatalog));
 * ```
 */
export function createPrecompiledCatalogValidator(
  module: PrecompiledCatalogModule,
): CatalogValidator {
  const catalogSchema = module.catalogSchema;
  // The alias `$id` the module was compiled under says which schema set it belongs to.
  const family = schemaFamilyOfAlias(catalogSchema.$id);
  const catalogUri = family.catalogAliasId;
  const kindDefinitions = family.serverMessageKinds;
  const serverKinds = Object.keys(kindDefinitions);
  /**
   * The family's schema documents, needed only to word a failure (and to list a component's
   * properties): a chunk of their own that a page whose messages are all valid never loads.
   * @throws ModuleNotLoadedError while they load (`MessageProcessor` then holds the message)
   */
  let wording:
    | {
        documents: Map<string, JsonSchema>;
        resolver: ReturnType<typeof createSchemaResolver>;
        diagnoseSchema: typeof FamilySchemasModule.diagnoseSchema;
        declaredProperties: typeof FamilySchemasModule.declaredProperties;
        serverDefinitions: Record<string, unknown>;
      }
    | undefined;
  const schemaWording = () => {
    if (wording) return wording;
    // The documents and the code that words a failure (`diagnose-schema.ts`) share one chunk.
    const loaded = familyDocumentsModule.get();
    const familyDocuments = loaded.familySchemas(family);
    const documents = new Map<string, JsonSchema>([
      [family.commonTypesId, familyDocuments.commonTypes],
      [family.serverMessageId, familyDocuments.serverMessage],
      [catalogUri, catalogSchema],
    ]);
    const definitions = familyDocuments.serverMessage.$defs;
    wording = {
      documents,
      resolver: loaded.createSchemaResolver(documents),
      diagnoseSchema: loaded.diagnoseSchema,
      declaredProperties: loaded.declaredProperties,
      serverDefinitions: isRecord(definitions) ? definitions : {},
    };
    return wording;
  };
  const componentSchemas = isRecord(catalogSchema.components) ? catalogSchema.components : {};
  const componentTypes = Object.keys(module.components);
  const functionNames = Object.keys(
    isRecord(catalogSchema.functions) ? catalogSchema.functions : {},
  );
  const declaredCache = new Map<string, Set<string>>();

  const diagnose = (
    schema: unknown,
    data: unknown,
    path: string,
    baseUri: string,
  ): ValidationIssue[] | undefined => {
    const { diagnoseSchema, documents } = schemaWording();
    return diagnoseSchema((schema ?? true) as JsonSchema, data, {
      documents,
      baseUri,
      path,
      formats,
    });
  };

  const hasComponent = (type: string): boolean => Object.hasOwn(module.components, type);

  const declaredFor = (type: string): Set<string> => {
    let declared = declaredCache.get(type);
    if (!declared) {
      const { declaredProperties, resolver } = schemaWording();
      declared = declaredProperties(
        componentSchemas[type] as JsonSchema,
        catalogUri,
        resolver,
        new Set(),
      );
      declaredCache.set(type, declared);
    }
    return declared;
  };

  const unknownTypeIssue = (type: unknown, path: string): ValidationIssue => ({
    path,
    keyword: 'component',
    message: `Unknown component type ${quoteValue(type)} in catalog "${module.catalogId}". Available component types: ${componentTypes.join(', ')}.`,
  });

  function checkComponent(
    component: unknown,
    options: CatalogValidateOptions = {},
  ): ComponentCheck {
    if (!isRecord(component)) {
      return {
        status: 'invalid',
        issues: [
          {
            path: '',
            keyword: 'type',
            message: `Expected a component object with "id" and "component", got ${jsonTypeOf(component)}.`,
          },
        ],
      };
    }
    if (!options.jsonChecked) {
      const tooDeep = findJsonViolation(component, options.maxDepth ?? DEFAULT_MAX_DEPTH);
      if (tooDeep) return { status: 'invalid', issues: [tooDeep] };
    }
    const type = component.component;
    if (typeof type !== 'string') {
      const issue: ValidationIssue =
        type === undefined
          ? {
              path: '/component',
              keyword: 'required',
              message: `Missing required property "component" (the component type, one of: ${componentTypes.join(', ')}).`,
            }
          : {
              path: '/component',
              keyword: 'type',
              message: `Expected a string, got ${jsonTypeOf(type)}.`,
            };
      return { status: 'invalid', issues: [issue] };
    }
    const validate = hasComponent(type) ? module.components[type] : undefined;
    if (!validate)
      return { status: 'unknown-type', issues: [unknownTypeIssue(type, '/component')] };
    if (validate(component)) return VALID;
    const errors = validate.errors;

    const declared = declaredFor(type);
    const unknown =
      declared.size > 0 ? Object.keys(component).filter((key) => !declared.has(key)) : [];
    const sanitized =
      unknown.length > 0
        ? Object.fromEntries(Object.entries(component).filter(([key]) => declared.has(key)))
        : component;
    const allowed = [...declared].join(', ');
    const propertyIssues = unknown.map((name) => ({
      path: appendPointer('', name),
      keyword: 'unevaluatedProperties',
      message: `Unknown property "${name}" on component "${type}". Allowed properties: ${allowed}.`,
    }));
    if (unknown.length > 0 && validate(sanitized)) {
      return {
        status: 'unknown-properties',
        properties: unknown,
        sanitized,
        issues: propertyIssues,
      };
    }
    const schema = componentSchemas[type];
    const remaining = diagnose(schema, sanitized, '', catalogUri);
    const functions = remaining && unknownFunctionCalls(remaining, sanitized);
    if (functions) {
      return {
        status: 'unknown-functions',
        functions,
        properties: unknown,
        sanitized,
        issues: [...propertyIssues, ...remaining!],
      };
    }
    const issues =
      sanitized === component ? remaining : diagnose(schema, component, '', catalogUri);
    return { status: 'invalid', issues: explainFailure(issues, errors, component) };
  }

  function explainServerMessage(message: unknown): ValidationIssue[] | undefined {
    const { issues, kind } = envelopeIssues(
      message,
      serverKinds,
      'server message',
      family.protocolVersion === A2UI_VERSION ? V08_SERVER_MESSAGES : {},
      family.protocolVersion,
    );
    if (kind === undefined) return issues;
    const definition = schemaWording().serverDefinitions[kindDefinitions[kind]!];
    const payloadSchema =
      isRecord(definition) && isRecord(definition.properties)
        ? definition.properties[kind]
        : undefined;
    const payload = diagnose(
      payloadSchema,
      (message as Record<string, unknown>)[kind],
      `/${kind}`,
      family.serverMessageId,
    );
    if (payload === undefined) return issues.length > 0 ? issues : undefined;
    return [...issues, ...payload];
  }

  return {
    catalogId: module.catalogId,
    componentTypes,
    functionNames,
    hasComponent,
    checkComponent,
    validateServerMessage(message, options = {}) {
      if (!options.jsonChecked) {
        const tooDeep = findJsonViolation(message, options.maxDepth ?? DEFAULT_MAX_DEPTH);
        if (tooDeep) return [tooDeep];
      }
      if (module.serverMessage(message)) return [];
      const errors = module.serverMessage.errors;
      return explainFailure(explainServerMessage(message), errors, message);
    },
    validateTheme(theme) {
      const tooDeep = findJsonViolation(theme, DEFAULT_MAX_DEPTH);
      if (tooDeep) return [tooDeep];
      if (module.theme(theme)) return [];
      const errors = module.theme.errors;
      const definitions = isRecord(catalogSchema.$defs) ? catalogSchema.$defs : {};
      return explainFailure(diagnose(definitions.theme, theme, '', catalogUri), errors, theme);
    },
  };
}
