/**
 * A LAVS service's view as an A2UI agent (issue 23, "views become A2UI surfaces"): each A2UI
 * client that connects gets the surface {@link planLavsView} reads from the manifest, filled from
 * the query, kept live by the subscription (each `lavs/data` push an `updateDataModel`), and its
 * buttons call the service's mutations through the LAVS client — so the surface follows changes
 * made by the agent, by an LLM through `createLavsTools`, or by any other client.
 *
 * The service's own `view.component` is never loaded or run: the generated A2UI view is used.
 */
import type { A2uiAgent, ActionEvent, Connection, ServerMessage } from '@a2ui-ts/core';
import type { LavsClient } from '../client/create-lavs-client.js';
import { LavsError } from '../errors/lavs-error.js';
import type { LavsManifest } from '../manifest/manifest-types.js';
import { LAVS_VIEW_APPLY, lavsViewSurface } from './lavs-view-surface.js';
import { type LavsViewPlan, type PlanLavsViewOptions, planLavsView } from './plan-lavs-view.js';

/** Options of {@link createLavsViewAgent}. */
export interface LavsViewAgentOptions extends PlanLavsViewOptions {
  /** The service, reached through its client (`createLavsClient`). */
  client: Pick<LavsClient, 'call' | 'subscribe' | 'getManifest'>;
  /** The service's manifest. @default fetched once with `client.getManifest()` */
  manifest?: LavsManifest;
  /** The surface's id. @default `lavs-<manifest name>` */
  surfaceId?: string;
}

const v = 'v0.9' as const;
type Row = Record<string, unknown>;

/**
 * Creates the agent that shows a LAVS service as a live A2UI surface.
 *
 * @param options - the `client`; `query`, `subscription`, `fallback`, `rowKey` override what the
 *   manifest implies ({@link PlanLavsViewOptions}); `manifest`, `surfaceId`
 * @returns an `A2uiAgent` for any transport (`createWsServer({ agent })`, …)
 * @throws (from `onConnect`) {@link LavsError} `METHOD_NOT_FOUND` when the manifest has no such
 *   query or subscription; the client's errors when the manifest cannot be fetched
 *
 * @example
 * ```ts
 * const client = createLavsClient({ url: 'http://127.0.0.1:5555', openWebSocket: (url) => new WebSocket(url) });
 * const a2ui = createWsServer({ agent: createLavsViewAgent({ client }), basePath: '/a2ui' });
 * ```
 */
export function createLavsViewAgent(options: LavsViewAgentOptions): A2uiAgent {
  const { client } = options;
  let planned: Promise<{ plan: LavsViewPlan; surfaceId: string }> | undefined;
  const plan = () => {
    planned ??= (async () => {
      const manifest = options.manifest ?? (await client.getManifest());
      return {
        plan: planLavsView(manifest, options),
        surfaceId: options.surfaceId ?? `lavs-${manifest.name}`,
      };
    })();
    planned.catch(() => {
      planned = undefined; // a service not up yet is asked again by the next connection
    });
    return planned;
  };
  /** What each connection was last shown, to tell which toggles the user made. */
  const shown = new WeakMap<Connection, Row[]>();
  const stops = new WeakMap<Connection, () => void>();

  const show = (connection: Connection, view: LavsViewPlan, surfaceId: string, output: unknown) => {
    if (connection.closed) return;
    const rows = view.single ? [output as Row] : Array.isArray(output) ? (output as Row[]) : [];
    shown.set(connection, rows);
    connection.send(outputUpdates(view, surfaceId, output, rows));
  };
  const status = (connection: Connection, surfaceId: string, message: string) => {
    if (!connection.closed)
      connection.send({
        version: v,
        updateDataModel: { surfaceId, path: '/status', value: message },
      });
  };
  /** The query again, when no subscription tells the view of changes. */
  const refresh = async (connection: Connection, view: LavsViewPlan, surfaceId: string) => {
    if (view.subscription === undefined)
      show(
        connection,
        view,
        surfaceId,
        await client.call(view.query, undefined, { signal: connection.signal }),
      );
  };

  return {
    async onConnect(connection) {
      const { plan: view, surfaceId } = await plan();
      const forms = Object.fromEntries(
        view.forms.map((form) => [form.endpoint, initialForm(form.fields)]),
      );
      connection.send([
        ...lavsViewSurface(view, surfaceId),
        {
          version: v,
          updateDataModel: {
            surfaceId,
            path: '/',
            value: { status: '', forms, items: [], json: '', empty: '', hasItems: false },
          },
        },
      ]);
      if (view.subscription === undefined) {
        await refresh(connection, view, surfaceId);
        return;
      }
      stops.set(
        connection,
        client.subscribe(view.subscription, (data) => show(connection, view, surfaceId, data), {
          onError: (error) =>
            status(connection, surfaceId, `Live updates stopped: ${error.message}`),
        }),
      );
    },
    async onAction(connection, action) {
      const { plan: view, surfaceId } = await plan();
      if (action.surfaceId !== surfaceId) return;
      try {
        await applyToggles(connection, view, surfaceId, action);
        const form = view.forms.find((entry) => entry.endpoint === action.name);
        if (form !== undefined) {
          await client.call(form.endpoint, formInput(form.fields, action.context), {
            signal: connection.signal,
          });
          connection.send({
            version: v,
            updateDataModel: {
              surfaceId,
              path: `/forms/${form.endpoint}`,
              value: initialForm(form.fields),
            },
          });
        } else if (view.rowActions.some((entry) => entry.endpoint === action.name)) {
          const key = view.rowKey!;
          await client.call(
            action.name,
            { [key]: action.context[key] },
            { signal: connection.signal },
          );
        } else if (action.name !== LAVS_VIEW_APPLY) return;
        status(connection, surfaceId, '');
        await refresh(connection, view, surfaceId);
      } catch (error) {
        if (connection.closed) return;
        // The service's own words (a LavsError's message) are for the user; anything else is not.
        status(
          connection,
          surfaceId,
          LavsError.isInstance(error) ? error.message : 'The service could not be reached.',
        );
      }
    },
    onDisconnect(connection) {
      stops.get(connection)?.();
    },
  };

  /**
   * Calls the toggle mutation for each row whose CheckBox, in the data model the client sent
   * with the action, differs from what the service last said.
   */
  async function applyToggles(
    connection: Connection,
    view: LavsViewPlan,
    surfaceId: string,
    action: ActionEvent,
  ) {
    const { toggle, rowKey } = view;
    if (toggle === undefined || rowKey === undefined) return;
    const model = connection.clientDataModel?.surfaces[surfaceId] as
      | { items?: unknown }
      | undefined;
    if (!Array.isArray(model?.items)) return;
    const before = new Map((shown.get(connection) ?? []).map((row) => [row[rowKey], row]));
    for (const row of model.items as Row[]) {
      const known = before.get(row[rowKey]);
      if (known === undefined || Boolean(known[toggle.property]) === Boolean(row[toggle.property]))
        continue;
      // The row the user deletes with this very action needs no toggle first.
      if (action.name !== toggle.endpoint && action.context[rowKey] === row[rowKey]) continue;
      await client.call(toggle.endpoint, { [rowKey]: row[rowKey] }, { signal: connection.signal });
    }
  }
}

/** A form's fields at their initial values. */
function initialForm(fields: LavsViewPlan['forms'][number]['fields']): Row {
  return Object.fromEntries(fields.map((field) => [field.key, field.initial]));
}

/**
 * The mutation's input from a form's action context: numbers typed as text made numbers, empty
 * optional fields left out (so the schema's defaults apply); the service checks the rest.
 */
function formInput(fields: LavsViewPlan['forms'][number]['fields'], context: Row): Row {
  const input: Row = {};
  for (const field of fields) {
    const value = context[field.key];
    if (value === undefined || value === null || (value === '' && !field.required)) continue;
    input[field.key] =
      (field.type === 'number' || field.type === 'integer') &&
      typeof value === 'string' &&
      value.trim() !== ''
        ? Number(value)
        : value;
  }
  return input;
}

/** The data-model updates that show `output`: the items (or its JSON text) and the empty state. */
function outputUpdates(
  view: LavsViewPlan,
  surfaceId: string,
  output: unknown,
  rows: readonly Row[],
): ServerMessage[] {
  const json = view.fallback === 'json';
  const empty = !json && rows.length === 0 ? view.emptyText : '';
  return [
    {
      version: v,
      updateDataModel: {
        surfaceId,
        path: json ? '/json' : '/items',
        value: json ? JSON.stringify(output, null, 2) : rows,
      },
    },
    { version: v, updateDataModel: { surfaceId, path: '/empty', value: empty } },
    // What "Save changes" is enabled by: there is a row whose toggle could change.
    { version: v, updateDataModel: { surfaceId, path: '/hasItems', value: rows.length > 0 } },
  ];
}
