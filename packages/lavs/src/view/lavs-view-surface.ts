/**
 * The A2UI v0.9 surface of a {@link LavsViewPlan}, in the basic catalog: the shown output under
 * `/items` (a List template over it for `list` and `table`, its JSON text under `/json` for
 * `json`), a caption under `/status` for the last refusal, the empty-state text under `/empty`,
 * each form's values under
 * `/forms/<endpointId>/<field>`.
 *
 * Actions are named after the mutation they call; a row's context carries the row's key, a form's
 * its fields. The basic catalog's CheckBox has no action of its own (only Button does), so a
 * toggle CheckBox edits the data model, which the surface sends with every action
 * (`sendDataModel`); the "Save changes" button ({@link LAVS_VIEW_APPLY}) — and any other action —
 * makes the agent call the toggle mutation for each row whose box differs from the service.
 */
import {
  BASIC_CATALOG_ID,
  type ComponentInstance,
  type FunctionCall,
  type ServerMessage,
} from '@a2ui-ts/core';
import type { LavsViewColumn, LavsViewPlan } from './plan-lavs-view.js';

/** The action of the "Save changes" button: apply the toggles the user made. */
export const LAVS_VIEW_APPLY = 'lavs.apply';

const v = 'v0.9' as const;

const text = (id: string, value: ComponentInstance['text'], variant?: string): ComponentInstance =>
  variant === undefined
    ? { id, component: 'Text', text: value }
    : { id, component: 'Text', text: value, variant };
const format = (value: string): FunctionCall => ({
  call: 'formatString',
  args: { value },
  returnType: 'string',
});
const button = (
  id: string,
  label: string,
  action: Record<string, unknown>,
  accessibleLabel?: FunctionCall,
): ComponentInstance[] => [
  {
    id,
    component: 'Button',
    child: `${id}-label`,
    action: { event: action },
    ...(accessibleLabel === undefined ? {} : { accessibility: { label: accessibleLabel } }),
  },
  text(`${id}-label`, label),
];

/**
 * A column's value in a `formatString` template: a date-time (or date) column through the basic
 * catalog's `formatDate`, which the renderer evaluates with `Intl.DateTimeFormat` in the reader's
 * locale (month name, digits, time zone) instead of showing ISO 8601 text.
 */
function cellTemplate(column: LavsViewColumn): string {
  if (column.format === 'date-time')
    return `\${formatDate(value: \${${column.key}}, format: 'MMM d, yyyy, HH:mm')}`;
  if (column.format === 'date')
    return `\${formatDate(value: \${${column.key}}, format: 'MMM d, yyyy')}`;
  return `\${${column.key}}`;
}

/** `createSurface` and `updateComponents` of the view (its data comes separately). */
export function lavsViewSurface(plan: LavsViewPlan, surfaceId: string): ServerMessage[] {
  const components: ComponentInstance[] = [];
  const children = ['title', 'status', 'body', 'empty'];
  components.push(
    // h1 as the official examples title a surface: the host maps it under its own headings
    // (the renderer's `minHeadingLevel`), so an h2 here would skip a level.
    text('title', plan.title, 'h1'),
    text('status', { path: '/status' }, 'caption'),
    // The agent sets `/empty` to the plan's `emptyText` while there are no items, else to ''.
    text('empty', { path: '/empty' }),
  );
  if (plan.fallback === 'json') components.push(text('body', { path: '/json' }));
  else components.push(...itemsComponents(plan));
  for (const form of plan.forms) {
    const id = `form-${form.endpoint}`;
    const fieldIds = form.fields.map((field) => `${id}-${field.key}`);
    children.push(id);
    components.push({
      id,
      component: 'Row',
      children: [...fieldIds, `${id}-submit`],
      align: 'end',
    });
    form.fields.forEach((field, index) => {
      const path = `/forms/${form.endpoint}/${field.key}`;
      components.push(
        field.type === 'boolean'
          ? { id: fieldIds[index]!, component: 'CheckBox', label: field.label, value: { path } }
          : {
              id: fieldIds[index]!,
              component: 'TextField',
              label: field.label,
              value: { path },
              // Every field shares the row (an unweighted one keeps its natural width and, on a
              // narrow screen, squeezes the others to nothing); text gets three shares.
              ...(field.type === 'string' ? { weight: 3 } : { weight: 1, variant: 'number' }),
            },
      );
    });
    const context = Object.fromEntries(
      form.fields.map((field) => [field.key, { path: `/forms/${form.endpoint}/${field.key}` }]),
    );
    components.push(...button(`${id}-submit`, form.label, { name: form.endpoint, context }));
  }
  if (plan.toggle !== undefined) {
    children.push('apply');
    const [apply, label] = button('apply', 'Save changes', { name: LAVS_VIEW_APPLY });
    // Nothing to save on an empty list: the button is disabled (the agent keeps `/hasItems`).
    components.push(
      {
        ...apply!,
        checks: [{ condition: { path: '/hasItems' }, message: 'Nothing to save yet.' }],
      },
      label!,
    );
  }
  components.unshift({ id: 'root', component: 'Column', children });
  return [
    {
      version: v,
      createSurface: {
        surfaceId,
        catalogId: BASIC_CATALOG_ID,
        ...(plan.toggle === undefined ? {} : { sendDataModel: true }),
      },
    },
    { version: v, updateComponents: { surfaceId, components } },
  ];
}

/** The List template over `/items`: a card per item (`list`) or a header and a row per item (`table`). */
function itemsComponents(plan: LavsViewPlan): ComponentInstance[] {
  const components: ComponentInstance[] = [];
  const shown = plan.columns.filter((column) => column.key !== plan.toggle?.property);
  const cell = (column: LavsViewColumn) => `cell-${column.key}`;
  const actions = plan.rowActions.map((action) => `row-${action.endpoint}`);
  const named = plan.primary === undefined ? '' : ` \${${plan.primary}}`;
  for (const action of plan.rowActions)
    components.push(
      ...button(
        `row-${action.endpoint}`,
        action.label,
        { name: action.endpoint, context: { [plan.rowKey!]: { path: plan.rowKey! } } },
        format(`${action.label}${named}`),
      ),
    );
  const toggle =
    plan.toggle === undefined
      ? []
      : [
          {
            id: 'row-toggle',
            component: 'CheckBox',
            // Labelled by the item (its primary column), so each box is told apart by name.
            label:
              plan.primary === undefined
                ? (plan.columns.find((column) => column.key === plan.toggle?.property)?.label ??
                  plan.toggle.property)
                : { path: plan.primary },
            value: { path: plan.toggle.property },
          } satisfies ComponentInstance,
        ];
  if (plan.fallback === 'table') {
    // With a toggle, the primary column's cell is the CheckBox (labelled by it) and the boolean
    // column has none of its own.
    const columns = plan.columns.filter((column) => column.key !== plan.toggle?.property);
    const cells = shown.filter(
      (column) => plan.toggle === undefined || column.key !== plan.primary,
    );
    const header = [
      ...columns.map((column) => `head-${column.key}`),
      ...(actions.length > 0 ? ['head-actions'] : []),
    ];
    components.push(
      { id: 'body', component: 'Column', children: ['header', 'items'] },
      { id: 'header', component: 'Row', children: header },
      ...columns.map((column) => ({
        ...text(`head-${column.key}`, column.label, 'caption'),
        weight: 1,
      })),
      ...(actions.length > 0 ? [{ ...text('head-actions', '', 'caption'), weight: 1 }] : []),
      { id: 'items', component: 'List', children: { componentId: 'item', path: '/items' } },
      {
        id: 'item',
        component: 'Row',
        align: 'center',
        children: [
          ...(plan.toggle !== undefined && plan.primary === undefined ? ['row-toggle'] : []),
          ...columns.map((column) =>
            plan.toggle !== undefined && column.key === plan.primary ? 'row-toggle' : cell(column),
          ),
          ...(actions.length > 0 ? ['row-actions'] : []),
        ],
      },
      ...cells.map((column) => ({
        ...text(
          cell(column),
          column.format === undefined ? { path: column.key } : format(cellTemplate(column)),
        ),
        weight: 1,
      })),
      ...toggle.map((component) => ({ ...component, weight: 1 })),
      ...(actions.length > 0
        ? [{ id: 'row-actions', component: 'Row', children: actions, weight: 1 }]
        : []),
    );
    return components;
  }
  const rest = shown.filter((column) => column.key !== plan.primary && column.key !== plan.rowKey);
  const main =
    plan.toggle !== undefined ? ['row-toggle'] : plan.primary === undefined ? [] : ['row-primary'];
  components.push(
    { id: 'body', component: 'List', children: { componentId: 'item', path: '/items' } },
    { id: 'item', component: 'Card', child: 'item-row' },
    { id: 'item-row', component: 'Row', align: 'center', children: ['item-main', ...actions] },
    { id: 'item-main', component: 'Column', weight: 1, children: [...main, 'row-details'] },
    ...toggle,
    ...(plan.primary === undefined || plan.toggle !== undefined
      ? []
      : [text('row-primary', { path: plan.primary }, 'h4')]),
    text(
      'row-details',
      format(rest.map((column) => `${column.label}: ${cellTemplate(column)}`).join(' · ')),
      'caption',
    ),
  );
  return components;
}
