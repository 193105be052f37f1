/**
 * What the generated A2UI view of a LAVS service shows and what its controls call (issue 23,
 * "views become A2UI surfaces"), read from the manifest alone: the query whose output is shown,
 * the subscription that keeps it live, the columns of its items (from `schema.output`), and how
 * each mutation is reached — a CheckBox for a `toggle…` mutation of a boolean column, a button per
 * row for a mutation that takes only the row's key, a form for any other mutation.
 */
import { LavsError } from '../errors/lavs-error.js';
import type { Endpoint, JsonSchema, LavsManifest } from '../manifest/manifest-types.js';

/** How the view lays items out: the manifest's `view.fallback` (spec §4.5). */
export type LavsViewFallback = 'list' | 'table' | 'json';

/** A property of the shown items. */
export interface LavsViewColumn {
  readonly key: string;
  readonly type: 'string' | 'number' | 'integer' | 'boolean';
  /** What a person reads: the schema's `title`, else the key made readable (`createdAt` → `Created at`). */
  readonly label: string;
  /** A string's schema `format` when it is a date: shown as a date in the reader's locale, not as ISO text. */
  readonly format?: 'date-time' | 'date';
}

/** A field of a mutation's form. */
export interface LavsViewField extends LavsViewColumn {
  readonly required: boolean;
  /** The schema's `default`, else `''`, `false` or `null` by type. */
  readonly initial: unknown;
}

/** What the generated view shows and calls; see {@link planLavsView}. */
export interface LavsViewPlan {
  readonly title: string;
  /** Shown when the query answers no items: `No todos yet.`, plus where to add one when a form can. */
  readonly emptyText: string;
  readonly fallback: LavsViewFallback;
  /** The query endpoint whose output is shown. */
  readonly query: string;
  /** The subscription whose pushes replace the shown output. */
  readonly subscription: string | undefined;
  /** True when the query answers one object rather than a list of them. */
  readonly single: boolean;
  readonly columns: readonly LavsViewColumn[];
  /** The column a row mutation's input is built from (`{ [rowKey]: row[rowKey] }`). */
  readonly rowKey: string | undefined;
  /** The column shown first, and named in each row button's accessible label. */
  readonly primary: string | undefined;
  /** A `toggle…` row mutation shown as a CheckBox bound to boolean column `property`. */
  readonly toggle: { readonly endpoint: string; readonly property: string } | undefined;
  /** Row mutations shown as a button on each row. */
  readonly rowActions: ReadonlyArray<{ readonly endpoint: string; readonly label: string }>;
  /** Other mutations, each a form of its input's fields and a button. */
  readonly forms: ReadonlyArray<{
    readonly endpoint: string;
    readonly label: string;
    readonly fields: readonly LavsViewField[];
  }>;
}

/** Options of {@link planLavsView}; each default is read from the manifest. */
export interface PlanLavsViewOptions {
  /** The query to show. @default the first `query` endpoint */
  query?: string;
  /** The subscription that keeps it live. @default the first whose `schema.output` equals the query's; none otherwise */
  subscription?: string | null;
  /** @default the manifest's `view.fallback`, else `'list'` */
  fallback?: LavsViewFallback;
  /** The items' key. @default `'id'` when the items have it, else none (no row mutations) */
  rowKey?: string;
}

const SCALAR = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * Reads the generated view of `manifest` from its endpoints' schemas.
 *
 * @throws {@link LavsError} `METHOD_NOT_FOUND` when the query or subscription named does not
 *   exist (or the manifest has no query)
 */
export function planLavsView(
  manifest: LavsManifest,
  options: PlanLavsViewOptions = {},
): LavsViewPlan {
  const byId = new Map(manifest.endpoints.map((endpoint) => [endpoint.id, endpoint]));
  const query = find(
    byId,
    'query',
    options.query ?? manifest.endpoints.find((e) => e.method === 'query')?.id,
  );
  const output = resolve(query.schema?.output, manifest);
  const single = output.type !== 'array';
  const item = single ? output : resolve(output.items as JsonSchema | undefined, manifest);
  const properties = (item.properties ?? {}) as Record<string, JsonSchema>;
  const columns = Object.entries(properties).flatMap(([key, schema]): LavsViewColumn[] => {
    const resolved = resolve(schema, manifest);
    const type = resolved.type;
    return typeof type === 'string' && SCALAR.has(type)
      ? [
          {
            key,
            type: type as LavsViewColumn['type'],
            label: labelOf(key, resolved),
            ...(resolved.format === 'date-time' || resolved.format === 'date'
              ? { format: resolved.format }
              : {}),
          },
        ]
      : [];
  });
  const rowKey = options.rowKey ?? (properties.id === undefined ? undefined : 'id');
  const subscription =
    options.subscription === null
      ? undefined
      : options.subscription !== undefined
        ? find(byId, 'subscription', options.subscription).id
        : manifest.endpoints.find(
            (e) =>
              e.method === 'subscription' &&
              JSON.stringify(e.schema?.output) === JSON.stringify(query.schema?.output),
          )?.id;

  const booleans = columns.filter((column) => column.type === 'boolean');
  let toggle: LavsViewPlan['toggle'];
  const rowActions: Array<LavsViewPlan['rowActions'][number]> = [];
  const forms: Array<LavsViewPlan['forms'][number]> = [];
  for (const endpoint of manifest.endpoints) {
    if (endpoint.method !== 'mutation') continue;
    const input = resolve(endpoint.schema?.input, manifest);
    const inputProperties = (input.properties ?? {}) as Record<string, JsonSchema>;
    const required = (input.required ?? []) as string[];
    const isRowAction =
      rowKey !== undefined &&
      !single &&
      inputProperties[rowKey] !== undefined &&
      required.every((name) => name === rowKey);
    if (isRowAction) {
      const property =
        booleans.find((column) => endpoint.id.toLowerCase().includes(column.key.toLowerCase()))
          ?.key ?? (booleans.length === 1 ? booleans[0]!.key : undefined);
      if (toggle === undefined && /^toggle/i.test(endpoint.id) && property !== undefined)
        toggle = { endpoint: endpoint.id, property };
      else rowActions.push({ endpoint: endpoint.id, label: verb(endpoint.id) });
      continue;
    }
    forms.push({
      endpoint: endpoint.id,
      label: verb(endpoint.id),
      fields: fields(input, manifest),
    });
  }
  const primary =
    columns.find((column) => column.type === 'string' && column.key !== rowKey)?.key ??
    columns[0]?.key;
  const noun = itemNoun(single ? query.schema?.output : output.items);
  return {
    title: manifest.description ?? manifest.name,
    emptyText: `No ${noun} yet.${forms.length > 0 ? ' Add one below.' : ''}`,
    fallback: options.fallback ?? manifest.view?.fallback ?? 'list',
    query: query.id,
    subscription,
    single,
    columns,
    rowKey,
    primary,
    toggle,
    rowActions,
    forms,
  };
}

/** The endpoint `id` of kind `method`. */
function find(byId: Map<string, Endpoint>, method: Endpoint['method'], id: string | undefined) {
  const endpoint = id === undefined ? undefined : byId.get(id);
  if (endpoint?.method !== method)
    throw new LavsError(
      'METHOD_NOT_FOUND',
      id === undefined
        ? `The service has no ${method} endpoint to show.`
        : `No ${method} endpoint "${id}" in the manifest.`,
    );
  return endpoint;
}

/** A schema with its `#/types/…` reference followed (once per level), as an object. */
function resolve(schema: JsonSchema | undefined, manifest: LavsManifest): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null) return {};
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/types/'))
    return resolve(manifest.types?.[ref.slice('#/types/'.length)], manifest);
  return schema;
}

/** The scalar fields of a mutation's input object. */
function fields(input: Record<string, unknown>, manifest: LavsManifest): LavsViewField[] {
  const required = new Set((input.required ?? []) as string[]);
  return Object.entries((input.properties ?? {}) as Record<string, JsonSchema>).flatMap(
    ([key, raw]): LavsViewField[] => {
      const schema = resolve(raw, manifest);
      if (typeof schema.type !== 'string' || !SCALAR.has(schema.type)) return [];
      const type = schema.type as LavsViewField['type'];
      const initial =
        'default' in schema
          ? schema.default
          : type === 'string'
            ? ''
            : type === 'boolean'
              ? false
              : null;
      return [{ key, type, label: labelOf(key, schema), required: required.has(key), initial }];
    },
  );
}

/** The button label of a mutation: its id's first word (`deleteTodo` → `Delete`). */
function verb(id: string): string {
  const word = /^[a-z]+|^[A-Z][a-z]*|^[^A-Z]+/.exec(id)?.[0] ?? id;
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A property's label: its schema's `title`, else its name in words (`createdAt`, `due_date` → `Created at`, `Due date`; `id` → `ID`). */
function labelOf(key: string, schema: Record<string, unknown>): string {
  if (typeof schema.title === 'string' && schema.title.trim() !== '') return schema.title;
  if (/^id$/i.test(key)) return 'ID';
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What the items are called: the plural of their `#/types/…` name (`Todo` → `todos`), else `items`. */
function itemNoun(items: unknown): string {
  const ref = (items as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/types/')) return 'items';
  const name = labelOf(ref.slice('#/types/'.length), {}).toLowerCase();
  return name.endsWith('s') ? name : `${name}s`;
}
