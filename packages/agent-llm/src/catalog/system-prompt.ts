/**
 * The system prompt of the LLM agent: the A2UI v0.9 rules a model must follow (digest §1–§8,
 * worded for generation) and the catalog it renders with, generated from the catalog document.
 */
import type { CatalogDocument } from './catalog-document.js';
import { describeCatalog } from './describe-catalog.js';
import { RENDER_TOOL_NAME } from './render-tool-schema.js';

/** Options of {@link createSystemPrompt}. */
export interface SystemPromptOptions {
  /** What the application wants from the model (its role, tone, data to use); placed first. */
  instructions?: string;
  /**
   * The catalog's own guidelines for models (a v1.0 catalog definition's `instructions`,
   * Markdown); placed with the catalog. @default none
   */
  catalogInstructions?: string;
  /** Surface ids that belong to the agent and that the model must never touch. @default [] */
  reservedSurfaceIds?: readonly string[];
}

/**
 * Builds the static part of the system prompt: the application's instructions, the rules of
 * A2UI v0.9 for `render_a2ui`, and the catalog described component by component.
 *
 * @example
 * ```ts
 * const system = createSystemPrompt(readCatalogDocument(basicCatalog), {
 *   instructions: 'You help users book restaurants.',
 * });
 * ```
 */
export function createSystemPrompt(
  document: CatalogDocument,
  options: SystemPromptOptions = {},
): string {
  const tool = RENDER_TOOL_NAME;
  const hasFormatString = Object.hasOwn(document.functions, 'formatString');
  const reserved = options.reservedSurfaceIds ?? [];
  const rules = [
    `Show the user everything through the ${tool} tool: it renders A2UI v0.9 user interfaces on the user's screen. Text you write outside a tool call is shown only as a short note, so put answers, results and forms in the UI.`,
    `Call ${tool} with {"messages": [...]}. Every message is {"version": "v0.9", <kind>: {...}} with exactly one kind: createSurface, updateDataModel, updateComponents or deleteSurface.`,
    `A new surface: createSurface {"surfaceId": <new, short, kebab-case>, "catalogId": "${document.catalogId}"} first, then updateDataModel with its initial data, then updateComponents.`,
    'Components form a flat list (an adjacency list), never nested objects: each is {"id": <unique in the surface>, "component": <type>, ...its properties}. Exactly one component of a surface has the id "root"; containers name their children by id. Send "root" first and every parent before its children, so the user sees the UI build up while you write it.',
    'A property marked * takes a literal, a data binding {"path": "/json/pointer"} (RFC 6901) or a function call {"call": <function>, "args": {...}}. Put data in the data model and bind to it instead of repeating literals.',
    hasFormatString
      ? 'Plain strings are never interpolated. To mix text and data use {"call": "formatString", "args": {"value": "Hello, ${/user/name}!"}}; inside it ${...} holds a path or a function call with named arguments, e.g. ${formatCurrency(value: ${/total}, currency: \'EUR\')}.'
      : 'Plain strings are never interpolated; bind a whole value with {"path": ...} instead.',
    'Inputs write what the user enters to the path their value is bound to, so bind every input to its own path in the data model.',
    'A template repeats one component per array item: "children": {"componentId": <template id>, "path": "/items"}. Inside the template, relative paths ("name", no leading slash) resolve against the item.',
    'An action {"event": {"name": <verb>, "context": {<key>: <value*>}}} sends its name and resolved context to you when the user clicks; you get it as the next user turn and answer by updating the UI. Bind context values to the inputs the action needs.',
    'updateDataModel {"surfaceId", "path"?, "value"?}: a path with a value upserts it; no path (or "/") replaces the whole data model; a path without a value deletes it.',
    'Surfaces stay on screen across turns. Change an existing surface with updateComponents (upserts by id; an update replaces all properties of that component) and updateDataModel; a createSurface for an existing surface replaces it; deleteSurface removes one you no longer need.',
    `When ${tool} reports errors, each names a JSON Pointer "path" into your call: fix exactly those and call ${tool} again. Messages and components it does not list were applied and are on screen; a component that references a listed problem is held back until it is fixed, so send only the corrections.`,
    'Call the other tools to fetch or change data; never invent data a tool can provide.',
  ];
  if (reserved.length > 0) {
    rules.push(
      `Never use the surface id${reserved.length > 1 ? 's' : ''} ${reserved.map((id) => `"${id}"`).join(', ')}: ${reserved.length > 1 ? 'they belong' : 'it belongs'} to the application.`,
    );
  }
  const sections: string[] = [];
  if (options.instructions?.trim()) sections.push(options.instructions.trim());
  sections.push(
    `# Rules of A2UI v0.9\n${rules.map((rule, index) => `${index + 1}. ${rule}`).join('\n')}`,
  );
  sections.push(
    `# The catalog (the only components and functions you may use)\n${describeCatalog(document)}`,
  );
  if (options.catalogInstructions?.trim())
    sections.push(`# How to use this catalog\n${options.catalogInstructions.trim()}`);
  return sections.join('\n\n');
}
