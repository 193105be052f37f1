/**
 * Explains WHY a value fails a JSON Schema, in one precise issue per real problem.
 *
 * Ajv decides validity; this module only runs after Ajv said "invalid", to word the issues. Ajv's
 * own error list for a `oneOf` reports every branch's failures flat, without telling which branch
 * was meant (a wrong `text` on a `Text` component yields ~80 errors across all 18 component
 * schemas and 14 function schemas). Here the schema is walked beside the value and, at every
 * `oneOf`/`anyOf`, the branch the author evidently meant is chosen: by a discriminator property
 * (`component`, `call`, or any property that is `const` in several branches), then by the JSON
 * type, then by which branch fails least structurally. Only that branch's issues are reported, at
 * the deepest path. When no branch fits the value's type the issue lists the accepted shapes
 * ("Expected a string, a {"path"} binding or a {"call"} function call, got integer.").
 *
 * It implements the draft 2020-12 keywords the A2UI schemas and typical catalogs use; unknown
 * keywords are ignored (Ajv stays the judge). Work is capped by a step budget so a hostile schema
 * or value cannot make error reporting expensive.
 */

import { isRecord } from '../protocol/guards.js';
import { appendPointer, jsonTypeOf, quoteValue, valueAtPointer } from './quote-value.js';
import { COMMON_TYPES_SCHEMA_ID, V1_0_COMMON_TYPES_SCHEMA_ID } from './schema-ids.js';
import type { ValidationIssue } from './validation-issue.js';

export { appendPointer, jsonTypeOf, quoteValue, valueAtPointer };

/** A JSON Schema: an object or a boolean schema. */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

/**
 * A format checker as found in `ajv-formats`' `fullFormats`: a RegExp, a predicate, or an object
 * with `validate` (and optionally `type: "number"` for numeric formats).
 */
export type FormatDefinition =
  | RegExp
  | ((value: string) => boolean)
  | { readonly validate: RegExp | ((value: never) => boolean); readonly type?: string };

/** Options of {@link diagnoseSchema}. */
export interface DiagnoseSchemaOptions {
  /** Schema documents by absolute URI (no fragment), used to resolve `$ref`. */
  readonly documents: ReadonlyMap<string, JsonSchema>;
  /** Absolute URI the schema's relative `$ref`s resolve against. */
  readonly baseUri: string;
  /**
   * JSON Pointer prepended to every issue path.
   * @default ""
   */
  readonly path?: string;
  /** Format checkers by format name; unknown formats pass. */
  readonly formats?: Readonly<Record<string, FormatDefinition>>;
  /**
   * Maximum number of (schema, value) visits before giving up.
   * @default 200_000
   */
  readonly maxSteps?: number;
}

/**
 * Walks `schema` beside `data` and returns the most specific issues explaining why `data` does not
 * match, or `undefined` when the step budget ran out (the caller then falls back to Ajv's errors).
 * An empty array means this walker found nothing wrong.
 *
 * @example
 * ```ts
 * const issues = diagnoseSchema({ type: 'object', required: ['id'] }, {}, {
 *   documents: new Map(), baseUri: 'https://example.com/s.json',
 * });
 * // [{ path: '/id', message: 'Missing required property "id".', keyword: 'required' }]
 * ```
 */
export function diagnoseSchema(
  schema: JsonSchema,
  data: unknown,
  options: DiagnoseSchemaOptions,
): ValidationIssue[] | undefined {
  const walker = new Walker(options);
  try {
    const outcome = walker.node(schema, data, options.path ?? '', options.baseUri);
    return dedupe(outcome.findings).map(({ path, message, keyword }) => ({
      path,
      message,
      keyword,
    }));
  } catch (error) {
    if (error === BUDGET_EXCEEDED) return undefined;
    throw error;
  }
}

/** Issue plus the path of the object the problem belongs to (for branch scoring). */
interface Finding extends ValidationIssue {
  keyword: string;
  /** For `required`/unknown-property findings: the object's path; otherwise `path`. */
  at: string;
}

interface Outcome {
  findings: Finding[];
  /** Property names evaluated at this location (`unevaluatedProperties` bookkeeping). */
  evaluated: Set<string> | 'all';
}

const BUDGET_EXCEEDED = Symbol('budget exceeded');
/** Component type and function name: what `anyComponent` and `anyFunction` branch on. */
const WELL_KNOWN_DISCRIMINATORS = new Set(['component', 'call']);
const OK: Readonly<Outcome> = Object.freeze({ findings: [], evaluated: new Set<string>() });

type SchemaObject = { readonly [keyword: string]: unknown };

/** Own, defined property (as Ajv sees JSON: `undefined` is absent, the prototype is invisible). */
const has = (data: Record<string, unknown>, name: string): boolean =>
  Object.hasOwn(data, name) && data[name] !== undefined;

function typeMatches(type: string, value: unknown): boolean {
  const actual = jsonTypeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/** Structural equality of JSON values (for `const`, `enum`, `uniqueItems`). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => jsonEqual(item, b[index]));
  }
  if (Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bRecord = b as Record<string, unknown>;
  if (aKeys.length !== Object.keys(bRecord).length) return false;
  return aKeys.every(
    (key) => key in bRecord && jsonEqual((a as Record<string, unknown>)[key], bRecord[key]),
  );
}

const depthOf = (path: string): number => (path === '' ? 0 : path.split('/').length - 1);

/** "a, b or c". */
export function joinAlternatives(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? 'nothing';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** Quoted list capped at `max` entries. */
function listNames(names: readonly string[], max = 30): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown}, … (${names.length - max} more)` : shown;
}

/** One finding per path: a second complaint about the same value (a `const` and an `enum` from two
 * subschemas) adds nothing an agent can act on. */
function dedupe(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  const result: Finding[] = [];
  for (const finding of findings) {
    const key = finding.path;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(finding);
  }
  return result;
}

interface Resolved {
  schema: JsonSchema;
  baseUri: string;
}

interface Constraint {
  kind: 'const' | 'not';
  value: unknown;
}

class Walker {
  private steps = 0;
  private readonly maxSteps: number;
  private readonly regexCache = new Map<string, RegExp | null>();
  private phrases: WeakMap<object, string> | undefined;

  constructor(private readonly options: DiagnoseSchemaOptions) {
    this.maxSteps = options.maxSteps ?? 200_000;
  }

  // ---------------------------------------------------------------- $ref resolution

  resolve(ref: string, baseUri: string): Resolved | undefined {
    let url: URL;
    try {
      url = new URL(ref, baseUri);
    } catch {
      return undefined;
    }
    const hashIndex = url.href.indexOf('#');
    const documentUri = hashIndex === -1 ? url.href : url.href.slice(0, hashIndex);
    const document = this.options.documents.get(documentUri);
    if (document === undefined) return undefined;
    let fragment: string;
    try {
      fragment = decodeURIComponent(url.hash.slice(1));
    } catch {
      return undefined;
    }
    if (fragment === '') return { schema: document, baseUri: documentUri };
    if (!fragment.startsWith('/')) return undefined; // $anchor refs: not used by A2UI schemas
    let node: unknown = document;
    for (const raw of fragment.slice(1).split('/')) {
      const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (Array.isArray(node)) node = node[Number(segment)];
      else if (isRecord(node)) node = node[segment];
      else return undefined;
    }
    if (typeof node !== 'boolean' && !isRecord(node)) return undefined;
    return { schema: node, baseUri: documentUri };
  }

  private baseOf(schema: SchemaObject, baseUri: string): string {
    if (typeof schema.$id !== 'string') return baseUri;
    try {
      return new URL(schema.$id, baseUri).href.split('#')[0] ?? baseUri;
    } catch {
      return baseUri;
    }
  }

  // ---------------------------------------------------------------- the walk

  node(schema: JsonSchema, data: unknown, path: string, baseUri: string): Outcome {
    if (++this.steps > this.maxSteps) throw BUDGET_EXCEEDED;
    if (schema === true) return OK;
    if (schema === false) {
      return this.fail(path, 'false schema', 'No value is allowed here.');
    }
    if (!isRecord(schema)) return OK;
    const base = this.baseOf(schema, baseUri);

    // A wrong type, const or enum makes every other keyword at this level noise.
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type)
        ? (schema.type as string[])
        : [schema.type as string];
      if (!types.some((type) => typeMatches(type, data))) {
        return this.fail(
          path,
          'type',
          `Expected ${this.describe(schema, base)}, got ${jsonTypeOf(data)}.`,
        );
      }
    }
    if ('const' in schema && !jsonEqual(data, schema.const)) {
      return this.fail(
        path,
        'const',
        `Expected ${quoteValue(schema.const)}, got ${quoteValue(data)}.`,
      );
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((option) => jsonEqual(data, option))) {
      return this.fail(
        path,
        'enum',
        `Expected one of ${listNames(schema.enum.map(quoteValue))}, got ${quoteValue(data)}.`,
      );
    }

    const findings: Finding[] = [];
    const evaluatedNames = new Set<string>();
    let allEvaluated = false;
    const merge = (outcome: Outcome): void => {
      findings.push(...outcome.findings);
      if (outcome.evaluated === 'all') allEvaluated = true;
      else for (const name of outcome.evaluated) evaluatedNames.add(name);
    };

    if (typeof schema.$ref === 'string') {
      const target = this.resolve(schema.$ref, base);
      if (target) merge(this.node(target.schema, data, path, target.baseUri));
    }
    if (Array.isArray(schema.allOf)) {
      for (const member of schema.allOf as JsonSchema[]) merge(this.node(member, data, path, base));
    }
    if (Array.isArray(schema.anyOf)) merge(this.choice('anyOf', schema, data, path, base));
    if (Array.isArray(schema.oneOf)) merge(this.choice('oneOf', schema, data, path, base));
    if (schema.not !== undefined) {
      const inner = this.node(schema.not as JsonSchema, data, path, base);
      if (inner.findings.length === 0) {
        findings.push(
          this.finding(
            path,
            'not',
            `Must not be ${this.describe(schema.not as JsonSchema, base)}.`,
          ),
        );
      }
    }
    if (schema.if !== undefined) {
      const condition = this.node(schema.if as JsonSchema, data, path, base);
      if (condition.findings.length === 0) {
        merge({ findings: [], evaluated: condition.evaluated });
        if (schema.then !== undefined)
          merge(this.node(schema.then as JsonSchema, data, path, base));
      } else if (schema.else !== undefined) {
        merge(this.node(schema.else as JsonSchema, data, path, base));
      }
    }

    if (typeof data === 'string') findings.push(...this.stringKeywords(schema, data, path));
    else if (typeof data === 'number') findings.push(...this.numberKeywords(schema, data, path));
    else if (Array.isArray(data)) findings.push(...this.arrayKeywords(schema, data, path, base));
    else if (isRecord(data)) {
      const own = this.objectKeywords(schema, data, path, base);
      merge(own);
      const unevaluated = schema.unevaluatedProperties;
      if (unevaluated !== undefined && !allEvaluated) {
        for (const key of Object.keys(data)) {
          if (evaluatedNames.has(key)) continue;
          if (unevaluated === false) {
            findings.push(
              this.unknownProperty(schema, data, key, path, base, 'unevaluatedProperties'),
            );
          } else {
            findings.push(
              ...this.node(unevaluated as JsonSchema, data[key], appendPointer(path, key), base)
                .findings,
            );
          }
        }
        allEvaluated = true;
      }
    }
    return { findings, evaluated: allEvaluated ? 'all' : evaluatedNames };
  }

  private fail(path: string, keyword: string, message: string): Outcome {
    return { findings: [this.finding(path, keyword, message)], evaluated: new Set() };
  }

  private finding(path: string, keyword: string, message: string, at = path): Finding {
    return { path, message, keyword, at };
  }

  // ---------------------------------------------------------------- oneOf / anyOf

  private choice(
    keyword: 'oneOf' | 'anyOf',
    schema: SchemaObject,
    data: unknown,
    path: string,
    base: string,
  ): Outcome {
    const branches = schema[keyword] as JsonSchema[];
    if (branches.length === 0) return OK;
    let candidates = branches.map((_, index) => index);

    // A discriminator picks the intended branch before anything else is evaluated.
    if (isRecord(data)) {
      const discriminator = this.discriminator(schema, branches, base);
      if (discriminator) {
        const { property, constraints } = discriminator;
        const value = has(data, property) ? data[property] : undefined;
        const known = [...constraints.values()]
          .filter((c) => c.kind === 'const')
          .map((c) => c.value);
        const matching = candidates.filter((index) => {
          const constraint = constraints.get(index);
          if (!constraint) return true;
          if (value === undefined) return false;
          return constraint.kind === 'const'
            ? jsonEqual(value, constraint.value)
            : !jsonEqual(value, constraint.value);
        });
        if (matching.length === 0) {
          const finding =
            value === undefined
              ? this.finding(
                  appendPointer(path, property),
                  'required',
                  `Missing required property "${property}"${onWhat(data)}. Expected one of ${listNames(known.map(quoteValue))}.`,
                  path,
                )
              : this.unknownDiscriminator(property, value, known, appendPointer(path, property));
          return { findings: [finding], evaluated: new Set() };
        }
        candidates = matching;
      }
    }

    const outcomes = new Map<number, Outcome>();
    for (const index of candidates) {
      outcomes.set(index, this.node(branches[index] as JsonSchema, data, path, base));
    }
    const passing = candidates.filter((index) => outcomes.get(index)!.findings.length === 0);
    if (keyword === 'anyOf' && passing.length > 0) {
      const evaluated = new Set<string>();
      for (const index of passing) {
        const e = outcomes.get(index)!.evaluated;
        if (e === 'all') return { findings: [], evaluated: 'all' };
        for (const name of e) evaluated.add(name);
      }
      return { findings: [], evaluated };
    }
    if (passing.length === 1) return outcomes.get(passing[0]!)!;
    if (passing.length > 1) {
      // Only reachable for oneOf after discriminator filtering left overlapping branches.
      const shapes = passing.flatMap((index) =>
        this.alternatives(branches[index] as JsonSchema, base),
      );
      return this.fail(
        path,
        'oneOf',
        `Ambiguous value: it matches ${passing.length} of the allowed shapes (${joinAlternatives(unique(shapes))}) but must match exactly one.`,
      );
    }

    const fitting = candidates.filter((index) => {
      const types = this.rootTypes(branches[index] as JsonSchema, base, new Set());
      return types === undefined || [...types].some((type) => typeMatches(type, data));
    });
    if (fitting.length === 0) {
      const shapes = candidates.flatMap((index) =>
        this.alternatives(branches[index] as JsonSchema, base),
      );
      return this.fail(
        path,
        'type',
        `Expected ${joinAlternatives(unique(shapes))}, got ${jsonTypeOf(data)}.`,
      );
    }

    // Branches that differ only by which property is required ({required:[min]} | {required:[max]}).
    if (fitting.length > 1) {
      const onlyMissing = fitting.every((index) =>
        outcomes.get(index)!.findings.every((f) => f.keyword === 'required' && f.at === path),
      );
      if (onlyMissing) {
        const names = unique(
          fitting.flatMap((index) =>
            outcomes.get(index)!.findings.map((f) => `"${lastSegment(f.path)}"`),
          ),
        );
        return this.fail(
          path,
          'required',
          `Missing property: expected ${keyword === 'anyOf' ? 'at least' : 'exactly'} one of ${joinAlternatives(names)}.`,
        );
      }
    }

    let best = fitting[0]!;
    let bestScore = score(outcomes.get(best)!.findings, path);
    for (const index of fitting.slice(1)) {
      const candidateScore = score(outcomes.get(index)!.findings, path);
      if (compareScores(candidateScore, bestScore) < 0) {
        best = index;
        bestScore = candidateScore;
      }
    }
    return outcomes.get(best)!;
  }

  /**
   * The property that tells the branches apart: the explicit OpenAPI `discriminator`, or a property
   * pinned by `const` in at least two branches. It only counts when every branch that pins it also
   * requires it, so that a branch it rules out is certain to fail (this walk also visits passing
   * subschemas, and must not invent problems there).
   */
  private discriminator(
    schema: SchemaObject,
    branches: readonly JsonSchema[],
    base: string,
  ): { property: string; constraints: Map<number, Constraint> } | undefined {
    const infos = branches.map((branch) => this.branchInfo(branch, base));
    const usable = (property: string): Map<number, Constraint> | undefined => {
      const constraints = new Map<number, Constraint>();
      for (const [index, info] of infos.entries()) {
        const constraint = info.constraints.get(property);
        if (!constraint) continue;
        if (!info.required.has(property)) return undefined;
        constraints.set(index, constraint);
      }
      return constraints;
    };
    const explicit = isRecord(schema.discriminator) ? schema.discriminator.propertyName : undefined;
    if (typeof explicit === 'string') {
      const constraints = usable(explicit);
      return constraints && constraints.size > 0 ? { property: explicit, constraints } : undefined;
    }
    const names = new Set(infos.flatMap((info) => [...info.constraints.keys()]));
    for (const property of names) {
      const constraints = usable(property);
      // A2UI's own discriminators count even in a one-function catalog's `anyFunction`.
      const needed = WELL_KNOWN_DISCRIMINATORS.has(property) ? 1 : 2;
      if (constraints && constraints.size >= needed) return { property, constraints };
    }
    return undefined;
  }

  /**
   * Properties pinned by `const` (or excluded by `not: {const}`) in a branch and the properties it
   * requires, looking through `$ref` and `allOf`.
   */
  private branchInfo(
    schema: JsonSchema,
    base: string,
    seen = new Set<object>(),
    info: { constraints: Map<string, Constraint>; required: Set<string> } = {
      constraints: new Map(),
      required: new Set(),
    },
  ): { constraints: Map<string, Constraint>; required: Set<string> } {
    if (!isRecord(schema) || seen.has(schema)) return info;
    seen.add(schema);
    const ownBase = this.baseOf(schema, base);
    if (isRecord(schema.properties)) {
      for (const [property, sub] of Object.entries(schema.properties)) {
        if (!isRecord(sub) || info.constraints.has(property)) continue;
        if ('const' in sub) info.constraints.set(property, { kind: 'const', value: sub.const });
        else if (isRecord(sub.not) && 'const' in sub.not) {
          info.constraints.set(property, { kind: 'not', value: sub.not.const });
        }
      }
    }
    if (Array.isArray(schema.required)) {
      for (const name of schema.required) if (typeof name === 'string') info.required.add(name);
    }
    if (typeof schema.$ref === 'string') {
      const target = this.resolve(schema.$ref, ownBase);
      if (target) this.branchInfo(target.schema, target.baseUri, seen, info);
    }
    if (Array.isArray(schema.allOf)) {
      for (const member of schema.allOf) this.branchInfo(member as JsonSchema, ownBase, seen, info);
    }
    return info;
  }

  private unknownDiscriminator(
    property: string,
    value: unknown,
    known: unknown[],
    path: string,
  ): Finding {
    const names = known.map((name) => (typeof name === 'string' ? name : quoteValue(name)));
    if (property === 'component') {
      return this.finding(
        path,
        'component',
        `Unknown component type ${quoteValue(value)}. Available component types: ${listNames(names)}.`,
      );
    }
    if (property === 'call') {
      return this.finding(
        path,
        'call',
        `Unknown function ${quoteValue(value)}. Available functions: ${listNames(names)}.`,
      );
    }
    return this.finding(
      path,
      'const',
      `Expected "${property}" to be one of ${listNames(known.map(quoteValue))}, got ${quoteValue(value)}.`,
    );
  }

  /** JSON types a schema can accept at its root, or `undefined` for "any". */
  private rootTypes(schema: JsonSchema, base: string, seen: Set<object>): Set<string> | undefined {
    if (schema === true) return undefined;
    if (schema === false) return new Set();
    if (!isRecord(schema) || seen.has(schema)) return undefined;
    seen.add(schema);
    const ownBase = this.baseOf(schema, base);
    const sets: Array<Set<string>> = [];
    if (schema.type !== undefined) {
      sets.push(
        new Set(Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string]),
      );
    } else if ('const' in schema) {
      sets.push(new Set([jsonTypeOf(schema.const)]));
    } else if (Array.isArray(schema.enum)) {
      sets.push(new Set(schema.enum.map(jsonTypeOf)));
    }
    if (typeof schema.$ref === 'string') {
      const target = this.resolve(schema.$ref, ownBase);
      const types = target && this.rootTypes(target.schema, target.baseUri, seen);
      if (types) sets.push(types);
    }
    if (Array.isArray(schema.allOf)) {
      for (const member of schema.allOf) {
        const types = this.rootTypes(member as JsonSchema, ownBase, seen);
        if (types) sets.push(types);
      }
    }
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const branches = schema[keyword];
      if (!Array.isArray(branches)) continue;
      const union = new Set<string>();
      let any = false;
      for (const branch of branches) {
        const types = this.rootTypes(branch as JsonSchema, ownBase, seen);
        if (!types) any = true;
        else for (const type of types) union.add(type);
      }
      if (!any) sets.push(union);
    }
    if (sets.length === 0) return undefined;
    // Intersect, treating "number" as also admitting "integer".
    let result = sets[0]!;
    for (const next of sets.slice(1)) {
      const intersection = new Set<string>();
      for (const type of result) {
        if (next.has(type)) intersection.add(type);
        else if (type === 'integer' && next.has('number')) intersection.add('integer');
        else if (type === 'number' && next.has('integer')) intersection.add('integer');
      }
      result = intersection;
    }
    return result;
  }

  // ---------------------------------------------------------------- describing schemas

  /** Human phrases for well-known common types, keyed by schema object identity. */
  private phraseFor(schema: object): string | undefined {
    if (!this.phrases) {
      this.phrases = new WeakMap();
      // v0.9's or v1.0's common types, whichever the documents hold (same shapes in both).
      const common =
        this.options.documents.get(COMMON_TYPES_SCHEMA_ID) ??
        this.options.documents.get(V1_0_COMMON_TYPES_SCHEMA_ID);
      const defs = isRecord(common) && isRecord(common.$defs) ? common.$defs : {};
      const set = (node: unknown, phrase: string): void => {
        if (isRecord(node)) this.phrases!.set(node, phrase);
      };
      set(defs.DataBinding, 'a {"path"} binding');
      set(defs.FunctionCall, 'a {"call"} function call');
      set(defs.ComponentId, 'a component id (string)');
      const childList =
        isRecord(defs.ChildList) && Array.isArray(defs.ChildList.oneOf) ? defs.ChildList.oneOf : [];
      set(childList[0], 'an array of component ids');
      set(childList[1], 'a {"componentId", "path"} template');
      const action =
        isRecord(defs.Action) && Array.isArray(defs.Action.oneOf) ? defs.Action.oneOf : [];
      set(action[0], 'an {"event": {"name"}} action');
      set(action[1], 'a {"functionCall"} action');
    }
    return this.phrases.get(schema);
  }

  /** "a string, a {"path"} binding or a {"call"} function call". */
  describe(schema: JsonSchema, base: string): string {
    return joinAlternatives(unique(this.alternatives(schema, base)));
  }

  private alternatives(schema: JsonSchema, base: string, depth = 0): string[] {
    if (schema === true) return ['any value'];
    if (schema === false) return ['nothing'];
    if (!isRecord(schema) || depth > 8) return ['a valid value'];
    const phrase = this.phraseFor(schema);
    if (phrase) return [phrase];
    const ownBase = this.baseOf(schema, base);
    if ('const' in schema) return [quoteValue(schema.const)];
    if (Array.isArray(schema.enum)) return [`one of ${listNames(schema.enum.map(quoteValue), 10)}`];
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type)
        ? (schema.type as string[])
        : [schema.type as string];
      return types.map((type) => this.typePhrase(type, schema, ownBase, depth));
    }
    if (typeof schema.$ref === 'string') {
      const target = this.resolve(schema.$ref, ownBase);
      if (target) return this.alternatives(target.schema, target.baseUri, depth + 1);
    }
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const branches = schema[keyword];
      if (Array.isArray(branches) && branches.length > 0) {
        return branches.flatMap((branch) =>
          this.alternatives(branch as JsonSchema, ownBase, depth + 1),
        );
      }
    }
    if (Array.isArray(schema.allOf)) {
      for (const member of schema.allOf) {
        const phrases = this.alternatives(member as JsonSchema, ownBase, depth + 1);
        if (
          !(phrases.length === 1 && (phrases[0] === 'any value' || phrases[0] === 'a valid value'))
        ) {
          return phrases;
        }
      }
    }
    return ['any value'];
  }

  private typePhrase(type: string, schema: SchemaObject, base: string, depth: number): string {
    switch (type) {
      case 'string':
        return 'a string';
      case 'number':
        return 'a number';
      case 'integer':
        return 'an integer';
      case 'boolean':
        return 'a boolean';
      case 'null':
        return 'null';
      case 'array': {
        const items = schema.items;
        if (isRecord(items)) {
          const phrase = this.alternatives(items, base, depth + 1);
          const plural: Record<string, string> = {
            'a string': 'strings',
            'a number': 'numbers',
            'an integer': 'integers',
            'a boolean': 'booleans',
            'a component id (string)': 'component ids',
          };
          if (phrase.length === 1 && plural[phrase[0]!]) return `an array of ${plural[phrase[0]!]}`;
        }
        return 'an array';
      }
      case 'object': {
        const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
        return required.length > 0
          ? `an object with ${joinAnd(required.map((name) => `"${name}"`))}`
          : 'an object';
      }
      default:
        return `a ${type}`;
    }
  }

  // ---------------------------------------------------------------- per-type keywords

  private stringKeywords(schema: SchemaObject, data: string, path: string): Finding[] {
    const findings: Finding[] = [];
    const length =
      typeof schema.minLength === 'number' || typeof schema.maxLength === 'number'
        ? [...data].length
        : 0;
    if (typeof schema.minLength === 'number' && length < schema.minLength) {
      findings.push(
        this.finding(
          path,
          'minLength',
          `Expected at least ${schema.minLength} characters, got ${length}.`,
        ),
      );
    }
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) {
      findings.push(
        this.finding(
          path,
          'maxLength',
          `Expected at most ${schema.maxLength} characters, got ${length}.`,
        ),
      );
    }
    if (typeof schema.pattern === 'string') {
      const regex = this.regex(schema.pattern);
      if (regex && !regex.test(data)) {
        findings.push(
          this.finding(
            path,
            'pattern',
            `Expected a string matching /${schema.pattern}/, got ${quoteValue(data)}.`,
          ),
        );
      }
    }
    if (typeof schema.format === 'string' && !this.formatMatches(schema.format, data)) {
      findings.push(
        this.finding(
          path,
          'format',
          `Expected a string in "${schema.format}" format, got ${quoteValue(data)}.`,
        ),
      );
    }
    return findings;
  }

  private numberKeywords(schema: SchemaObject, data: number, path: string): Finding[] {
    const findings: Finding[] = [];
    const check = (keyword: string, failed: boolean, relation: string, limit: unknown): void => {
      if (failed)
        findings.push(
          this.finding(path, keyword, `Expected a number ${relation} ${limit}, got ${data}.`),
        );
    };
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
    if (typeof minimum === 'number') check('minimum', data < minimum, '>=', minimum);
    if (typeof maximum === 'number') check('maximum', data > maximum, '<=', maximum);
    if (typeof exclusiveMinimum === 'number')
      check('exclusiveMinimum', data <= exclusiveMinimum, '>', exclusiveMinimum);
    if (typeof exclusiveMaximum === 'number')
      check('exclusiveMaximum', data >= exclusiveMaximum, '<', exclusiveMaximum);
    if (typeof multipleOf === 'number' && multipleOf > 0) {
      const quotient = data / multipleOf;
      check(
        'multipleOf',
        Math.abs(quotient - Math.round(quotient)) > 1e-9,
        'that is a multiple of',
        multipleOf,
      );
    }
    if (typeof schema.format === 'string' && !this.formatMatches(schema.format, data)) {
      findings.push(
        this.finding(
          path,
          'format',
          `Expected a number in "${schema.format}" format, got ${data}.`,
        ),
      );
    }
    return findings;
  }

  private arrayKeywords(
    schema: SchemaObject,
    data: unknown[],
    path: string,
    base: string,
  ): Finding[] {
    const findings: Finding[] = [];
    const plural = (n: number): string => `${n} item${n === 1 ? '' : 's'}`;
    if (typeof schema.minItems === 'number' && data.length < schema.minItems) {
      findings.push(
        this.finding(
          path,
          'minItems',
          `Expected at least ${plural(schema.minItems)}, got ${data.length}.`,
        ),
      );
    }
    if (typeof schema.maxItems === 'number' && data.length > schema.maxItems) {
      findings.push(
        this.finding(
          path,
          'maxItems',
          `Expected at most ${plural(schema.maxItems)}, got ${data.length}.`,
        ),
      );
    }
    // Draft 2020-12 `prefixItems`; an array-valued `items` is the older spelling of the same thing.
    const prefix = Array.isArray(schema.prefixItems)
      ? (schema.prefixItems as JsonSchema[])
      : Array.isArray(schema.items)
        ? (schema.items as JsonSchema[])
        : [];
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    data.forEach((item, index) => {
      const itemSchema = index < prefix.length ? prefix[index] : rest;
      if (itemSchema !== undefined) {
        findings.push(
          ...this.node(itemSchema as JsonSchema, item, appendPointer(path, index), base).findings,
        );
      }
    });
    if (schema.uniqueItems === true) {
      outer: for (let i = 0; i < data.length; i++) {
        for (let j = i + 1; j < data.length; j++) {
          if (jsonEqual(data[i], data[j])) {
            findings.push(
              this.finding(
                appendPointer(path, j),
                'uniqueItems',
                `Duplicate of item ${i}; items must be unique.`,
              ),
            );
            break outer;
          }
        }
      }
    }
    if (schema.contains !== undefined) {
      const matches = data.filter((item, index) => {
        return (
          this.node(schema.contains as JsonSchema, item, appendPointer(path, index), base).findings
            .length === 0
        );
      }).length;
      const min = typeof schema.minContains === 'number' ? schema.minContains : 1;
      if (matches < min) {
        findings.push(
          this.finding(
            path,
            'contains',
            `Expected at least ${plural(min)} that ${min === 1 ? 'is' : 'are'} ${this.describe(schema.contains as JsonSchema, base)}.`,
          ),
        );
      }
    }
    return findings;
  }

  private objectKeywords(
    schema: SchemaObject,
    data: Record<string, unknown>,
    path: string,
    base: string,
  ): Outcome {
    const findings: Finding[] = [];
    const evaluated = new Set<string>();
    if (Array.isArray(schema.required)) {
      for (const name of schema.required as string[]) {
        if (!has(data, name)) {
          findings.push(
            this.finding(
              appendPointer(path, name),
              'required',
              `Missing required property "${name}"${onWhat(data)}.`,
              path,
            ),
          );
        }
      }
    }
    if (isRecord(schema.dependentRequired)) {
      for (const [trigger, needed] of Object.entries(schema.dependentRequired)) {
        if (!has(data, trigger) || !Array.isArray(needed)) continue;
        for (const name of needed as string[]) {
          if (!has(data, name)) {
            findings.push(
              this.finding(
                appendPointer(path, name),
                'required',
                `Missing property "${name}", required when "${trigger}" is present.`,
                path,
              ),
            );
          }
        }
      }
    }
    const properties = isRecord(schema.properties) ? schema.properties : {};
    for (const [name, sub] of Object.entries(properties)) {
      if (!has(data, name)) continue;
      evaluated.add(name);
      findings.push(
        ...this.node(sub as JsonSchema, data[name], appendPointer(path, name), base).findings,
      );
    }
    const patterns = isRecord(schema.patternProperties)
      ? Object.entries(schema.patternProperties)
      : [];
    for (const [pattern, sub] of patterns) {
      const regex = this.regex(pattern);
      if (!regex) continue;
      for (const [name, value] of Object.entries(data)) {
        if (!regex.test(name)) continue;
        evaluated.add(name);
        findings.push(
          ...this.node(sub as JsonSchema, value, appendPointer(path, name), base).findings,
        );
      }
    }
    if (schema.additionalProperties !== undefined) {
      for (const [name, value] of Object.entries(data)) {
        if (
          Object.hasOwn(properties, name) ||
          patterns.some(([pattern]) => this.regex(pattern)?.test(name))
        )
          continue;
        evaluated.add(name);
        if (schema.additionalProperties === false) {
          findings.push(
            this.unknownProperty(schema, data, name, path, base, 'additionalProperties'),
          );
        } else {
          findings.push(
            ...this.node(
              schema.additionalProperties as JsonSchema,
              value,
              appendPointer(path, name),
              base,
            ).findings,
          );
        }
      }
    }
    const count = Object.keys(data).length;
    if (typeof schema.minProperties === 'number' && count < schema.minProperties) {
      findings.push(
        this.finding(
          path,
          'minProperties',
          `Expected at least ${schema.minProperties} properties, got ${count}.`,
        ),
      );
    }
    if (typeof schema.maxProperties === 'number' && count > schema.maxProperties) {
      findings.push(
        this.finding(
          path,
          'maxProperties',
          `Expected at most ${schema.maxProperties} properties, got ${count}.`,
        ),
      );
    }
    return { findings, evaluated };
  }

  private unknownProperty(
    schema: SchemaObject,
    data: Record<string, unknown>,
    name: string,
    path: string,
    base: string,
    keyword: string,
  ): Finding {
    // `additionalProperties` only sees its own `properties`; `unevaluatedProperties` sees through allOf/$ref.
    const allowed =
      keyword === 'additionalProperties'
        ? Object.keys(isRecord(schema.properties) ? schema.properties : {})
        : [...declaredProperties(schema, base, this, new Set())];
    const hint = allowed.length > 0 ? ` Allowed properties: ${listNames(allowed, 40)}.` : '';
    return this.finding(
      appendPointer(path, name),
      keyword,
      `Unknown property "${name}"${onWhat(data)}.${hint}`,
      path,
    );
  }

  private regex(pattern: string): RegExp | null {
    let regex = this.regexCache.get(pattern);
    if (regex === undefined) {
      try {
        regex = new RegExp(pattern, 'u');
      } catch {
        regex = null; // Ajv would have rejected the schema; nothing useful to say here.
      }
      this.regexCache.set(pattern, regex);
    }
    return regex;
  }

  private formatMatches(format: string, value: string | number): boolean {
    const definition = this.options.formats?.[format];
    if (definition === undefined) return true;
    let check: RegExp | ((value: never) => boolean);
    if (definition instanceof RegExp || typeof definition === 'function') {
      if (typeof value !== 'string') return true;
      check = definition;
    } else {
      const wanted = definition.type ?? 'string';
      if (wanted !== typeof value) return true;
      check = definition.validate;
    }
    return check instanceof RegExp
      ? check.test(String(value))
      : (check as (v: unknown) => boolean)(value);
  }
}

/** Names declared by `properties` through `$ref` and `allOf`, for "Allowed properties" hints. */
export function declaredProperties(
  schema: JsonSchema,
  base: string,
  resolver: { resolve(ref: string, baseUri: string): Resolved | undefined },
  seen: Set<object>,
): Set<string> {
  const names = new Set<string>();
  if (!isRecord(schema) || seen.has(schema)) return names;
  seen.add(schema);
  if (isRecord(schema.properties))
    for (const name of Object.keys(schema.properties)) names.add(name);
  if (typeof schema.$ref === 'string') {
    const target = resolver.resolve(schema.$ref, base);
    if (target)
      for (const name of declaredProperties(target.schema, target.baseUri, resolver, seen))
        names.add(name);
  }
  if (Array.isArray(schema.allOf)) {
    for (const member of schema.allOf) {
      for (const name of declaredProperties(member as JsonSchema, base, resolver, seen))
        names.add(name);
    }
  }
  return names;
}

/**
 * A `$ref` resolver over a document map, for callers that need {@link declaredProperties} outside
 * a diagnosis.
 */
export function createSchemaResolver(documents: ReadonlyMap<string, JsonSchema>): {
  resolve(ref: string, baseUri: string): Resolved | undefined;
} {
  const walker = new Walker({ documents, baseUri: '' });
  return { resolve: (ref, baseUri) => walker.resolve(ref, baseUri) };
}

function onWhat(data: Record<string, unknown>): string {
  if (typeof data.component === 'string') return ` on component "${data.component}"`;
  if (typeof data.call === 'string') return ` in call to "${data.call}"`;
  return '';
}

function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

function lastSegment(path: string): string {
  const segment = path.slice(path.lastIndexOf('/') + 1);
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

const STRUCTURAL = new Set(['required', 'additionalProperties', 'unevaluatedProperties']);

/** Lower is better: fewest structural misfits at this object, then deepest finding, then fewest. */
function score(findings: readonly Finding[], path: string): [number, number, number] {
  const unique = dedupe(findings);
  const structural = unique.filter((f) => f.at === path && STRUCTURAL.has(f.keyword)).length;
  const deepest = unique.reduce((max, f) => Math.max(max, depthOf(f.path)), 0);
  return [structural, -deepest, unique.length];
}

function compareScores(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
