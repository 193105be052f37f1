/**
 * v0.9 ↔ v1.0 (candidate, `specification/v1_0/`) message translation, following the v1.0
 * evolution guide §2–§3. Pure apart from the v1.0 → v0.9 side remembering each surface's default
 * catalog. What the target cannot express is reported to an {@link IssueSink}.
 */
import { A2UI_VERSION, BASIC_CATALOG_ID } from '../protocol/constants.js';
import { getServerMessageKind, isRecord, setOwn } from '../protocol/guards.js';
import type { ComponentInstance, ServerMessage } from '../protocol/messages.js';
import { encodeSegment } from '../state/json-pointer.js';
import { hoistInlineTemplates } from '../versions/hoist-inline-templates.js';
import { normalizeReservedKeys } from '../versions/normalize-reserved-keys.js';
import { fromMarkdownHeading, toMarkdownHeading } from './markdown-heading.js';
import type { IssueSink } from './migration-issue.js';

/** Envelope `version` v1.0 messages are written with (the copied schemas' `const`). */
export const V10_VERSION = 'v1.0' as const;

/** `catalogId` of the v1.0 basic catalog. */
export const V10_BASIC_CATALOG_ID =
  'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json';

/** A v1.0 agent→renderer message, as plain JSON. */
export type V10Message = Record<string, unknown> & { version: string };

/** Text variants the v1.0 basic catalog removed (evolution guide §2.2). */
const V10_REMOVED_TEXT_VARIANTS = new Set(['h1', 'h2', 'h3', 'h4', 'h5']);

/** Basic-catalog properties that exist only in v1.0, by component type. */
const V10_ONLY_PROPERTIES: Record<string, readonly string[]> = {
  Video: ['posterUrl'],
  TextField: ['placeholder'],
  Slider: ['steps'],
};

/** One v0.9 agent message in v1.0 shape. */
export function upgradeV09ToV10(message: ServerMessage, sink: IssueSink): V10Message {
  const kind = getServerMessageKind(message);
  const body = kind
    ? ((message as unknown as Record<string, unknown>)[kind] as Record<string, unknown>)
    : {};
  switch (kind) {
    case 'createSurface': {
      const { theme, catalogId, ...rest } = body;
      if (theme !== undefined) {
        sink.lost(
          '/createSurface/theme',
          'v1.0 createSurface has no theme (removed without replacement); dropped',
        );
      }
      return {
        version: V10_VERSION,
        createSurface: {
          ...rest,
          catalogId: catalogId === BASIC_CATALOG_ID ? V10_BASIC_CATALOG_ID : catalogId,
        },
      };
    }
    case 'updateComponents': {
      const components = (body.components as ComponentInstance[]).map((component, index) =>
        upgradeComponentToV10(component, `/updateComponents/components/${index}`, sink),
      );
      return { version: V10_VERSION, updateComponents: { ...body, components } };
    }
    case 'updateDataModel': {
      const { value, ...rest } = body;
      if (value === null) {
        sink.lost(
          '/updateDataModel/value',
          'v0.9 writes null here, but null deletes the key in v1.0; written as a deletion',
        );
      }
      // v1.0 requires `value`; null deletes, as an omitted value did in v0.9.
      return {
        version: V10_VERSION,
        updateDataModel: { ...rest, value: value === undefined ? null : value },
      };
    }
    default:
      return { ...message, version: V10_VERSION };
  }
}

function upgradeComponentToV10(
  component: ComponentInstance,
  path: string,
  sink: IssueSink,
): ComponentInstance {
  const result = stripReturnTypes(component) as ComponentInstance;
  if (
    component.component === 'Text' &&
    V10_REMOVED_TEXT_VARIANTS.has(component.variant as string)
  ) {
    // v1.0 writes a heading as Markdown (`# Title`); only a text that cannot be prefixed (a
    // function call other than formatString of a literal) loses it.
    const heading = toMarkdownHeading(result.text, Number(String(component.variant).slice(1)));
    if (heading === undefined) {
      sink.lost(
        `${path}/variant`,
        `Text variant "${component.variant}" was removed from the v1.0 basic catalog and this text cannot carry a Markdown heading; dropped`,
      );
    } else {
      result.text = heading as ComponentInstance['text'];
    }
    delete result.variant;
  }
  if (component.component === 'TextField' && 'validationRegexp' in component) {
    sink.lost(
      `${path}/validationRegexp`,
      'TextField.validationRegexp was removed in v1.0 (use checks with regex); dropped',
    );
    delete result.validationRegexp;
  }
  if (Array.isArray(result.checks)) {
    result.checks = result.checks.filter((check, index) => {
      const literal = isRecord(check) && typeof check.condition === 'boolean';
      if (literal)
        sink.lost(
          `${path}/checks/${index}/condition`,
          'a literal boolean check condition has no v1.0 form (a binding or a call); dropped',
        );
      return !literal;
    });
  }
  return result;
}

/**
 * `returnType` removed from every FunctionCall: v1.0 takes it from the catalog's function
 * definition, so nothing is lost (evolution guide §2.6). A literal key starting with `@` (an
 * action context key `@at`) is escaped `@@at`: v1.0 reserves the `@` namespace.
 */
function stripReturnTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripReturnTypes);
  if (!isRecord(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'returnType' && typeof value.call === 'string') continue;
    setOwn(result, key.startsWith('@') ? `@${key}` : key, stripReturnTypes(item));
  }
  return result;
}

/**
 * Translates v1.0 agent messages into v0.9 ones: inline `createSurface` content becomes
 * separate messages; function-call messages, extensions metadata, per-component catalogs and
 * v1.0-only properties are reported.
 */
export class V10Downgrader {
  readonly #defaultCatalogs = new Map<string, string>();

  /** One v1.0 message as v0.9 messages (none when v0.9 has no equivalent). */
  downgrade(message: V10Message, sink: IssueSink): ServerMessage[] {
    const kind = ['createSurface', 'updateComponents', 'updateDataModel', 'deleteSurface'].find(
      (key) => key in message,
    );
    const body = kind ? (message[kind] as Record<string, unknown>) : undefined;
    if (!kind || !isRecord(body)) {
      const name = Object.keys(message).find((key) => key !== 'version') ?? '';
      sink.lost(
        `/${encodeSegment(name)}`,
        `"${name}" has no v0.9 equivalent (v1.0 renderer/agent function calls); dropped`,
      );
      return [];
    }
    const surfaceId = body.surfaceId as string;
    switch (kind) {
      case 'createSurface':
        return this.#createSurface(body, sink);
      case 'updateComponents':
        return [
          this.#updateComponents(surfaceId, body.components, '/updateComponents/components', sink),
        ];
      case 'updateDataModel': {
        const { value, ...rest } = body;
        return [
          {
            version: A2UI_VERSION,
            updateDataModel: value === null ? rest : { ...rest, value },
          } as unknown as ServerMessage,
        ];
      }
      default:
        this.#defaultCatalogs.delete(surfaceId);
        return [{ version: A2UI_VERSION, deleteSurface: { surfaceId } }];
    }
  }

  #createSurface(body: Record<string, unknown>, sink: IssueSink): ServerMessage[] {
    const { surfaceId, catalogId, components, dataModel, metadata, ...rest } = body;
    let v09CatalogId = catalogId === V10_BASIC_CATALOG_ID ? BASIC_CATALOG_ID : catalogId;
    if (typeof v09CatalogId !== 'string') {
      sink.lost(
        '/createSurface',
        'v0.9 createSurface requires a catalogId; the basic catalog is named',
      );
      v09CatalogId = BASIC_CATALOG_ID;
    }
    this.#defaultCatalogs.set(surfaceId as string, (catalogId as string | undefined) ?? '');
    if (metadata !== undefined)
      sink.lost(
        '/createSurface/metadata',
        'surface metadata (extensions) has no v0.9 equivalent; dropped',
      );
    const out: ServerMessage[] = [
      {
        version: A2UI_VERSION,
        createSurface: { surfaceId, catalogId: v09CatalogId, ...rest },
      } as unknown as ServerMessage,
    ];
    if (isRecord(dataModel)) {
      out.push({
        version: A2UI_VERSION,
        updateDataModel: { surfaceId: surfaceId as string, path: '/', value: dataModel },
      });
    }
    if (Array.isArray(components) && components.length > 0) {
      out.push(
        this.#updateComponents(surfaceId as string, components, '/createSurface/components', sink),
      );
    }
    return out;
  }

  #updateComponents(
    surfaceId: string,
    components: unknown,
    path: string,
    sink: IssueSink,
  ): ServerMessage {
    const defaultCatalog = this.#defaultCatalogs.get(surfaceId);
    // Read as the v1.0 module reads them: the drafted `@` keys (`@path`, `@call`, `@@x`, …) as
    // the bare keys v0.9 spells, inline collection templates as ChildList templates. An unknown
    // `@` key or two spellings of one key throw; the message is then reported and dropped.
    const read = hoistInlineTemplates(
      normalizeReservedKeys(
        Array.isArray(components) ? components : [],
        path,
      ) as ComponentInstance[],
    );
    const list = read.map((component, index) =>
      downgradeComponentToV09(
        component as ComponentInstance,
        `${path}/${index}`,
        defaultCatalog,
        sink,
      ),
    );
    return { version: A2UI_VERSION, updateComponents: { surfaceId, components: list } };
  }
}

function downgradeComponentToV09(
  component: ComponentInstance,
  path: string,
  defaultCatalog: string | undefined,
  sink: IssueSink,
): ComponentInstance {
  const result = downgradeValue(component, path, defaultCatalog, sink) as ComponentInstance;
  if (component.component === 'Text' && (result.variant ?? 'body') === 'body') {
    // A heading line is v0.9's heading variant (what the v0.9 → v1.0 side writes as `# Title`).
    const heading = fromMarkdownHeading(result.text);
    if (heading) {
      result.text = heading.text as ComponentInstance['text'];
      result.variant = heading.variant;
    }
  }
  if ('catalogId' in result) {
    if (result.catalogId !== defaultCatalog) {
      sink.lost(
        `${path}/catalogId`,
        `a component from another catalog ("${String(result.catalogId)}") has no v0.9 form (one catalog per surface); its catalogId is dropped`,
      );
    }
    delete result.catalogId;
  }
  if ('metadata' in result) {
    sink.lost(
      `${path}/metadata`,
      'component metadata (extensions) has no v0.9 equivalent; dropped',
    );
    delete result.metadata;
  }
  for (const name of V10_ONLY_PROPERTIES[component.component] ?? []) {
    if (!(name in result)) continue;
    sink.lost(`${path}/${name}`, `${component.component}.${name} is new in v1.0; dropped`);
    delete result[name];
  }
  if (isRecord(result.accessibility)) {
    const { live, hidden, ...accessibility } = result.accessibility;
    if (live !== undefined || hidden !== undefined) {
      sink.lost(`${path}/accessibility`, 'accessibility live/hidden are new in v1.0; dropped');
      result.accessibility = accessibility;
    }
  }
  if (Array.isArray(result.checks)) {
    result.checks = result.checks.map((check, index) => {
      if (!isRecord(check) || typeof check.message === 'string') return check;
      sink.lost(
        `${path}/checks/${index}/message`,
        'v0.9 CheckRule requires a message (v1.0 may take it from a ValidationResult); an empty one is used',
      );
      return { ...check, message: '' };
    });
  }
  return result;
}

/** Copies `value`, reporting `@index` calls, call-level `catalogId`s and `event.userMessage`. */
function downgradeValue(
  value: unknown,
  path: string,
  defaultCatalog: string | undefined,
  sink: IssueSink,
): unknown {
  if (Array.isArray(value))
    return value.map((item, index) =>
      downgradeValue(item, `${path}/${index}`, defaultCatalog, sink),
    );
  if (!isRecord(value)) return value;
  if (value.call === '@index') {
    sink.lost(path, '@index is new in v1.0; the call is kept and evaluates to nothing in v0.9');
  }
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof value.call === 'string' && key === 'catalogId') {
      if (item !== defaultCatalog)
        sink.lost(`${path}/catalogId`, "a function call's own catalogId has no v0.9 form; dropped");
      continue;
    }
    if (key === 'userMessage' && typeof value.name === 'string') {
      sink.lost(`${path}/userMessage`, 'event.userMessage is new in v1.0; dropped');
      continue;
    }
    setOwn(
      result,
      key,
      downgradeValue(item, `${path}/${encodeSegment(key)}`, defaultCatalog, sink),
    );
  }
  return result;
}
