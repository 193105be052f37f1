/**
 * The A2UI v1.0 function-call example, both directions: the agent asks the page for the user's
 * locale (`callRendererFunction` → `getLocale`) to put the cities of the user's country first,
 * and the page asks the agent for suggestions as the user types (`callAgentFunction` →
 * `suggestCities`). On a connection that negotiated an older version, which carries no function
 * calls, the agent says so instead.
 */
import {
  type A2uiAgent,
  A2uiError,
  BASIC_CATALOG_ID,
  type Connection,
  supportsFunctionCalls,
  type V10ServerMessage,
} from '@a2ui-ts/core';
import {
  CITY_FINDER_PATHS,
  CITY_FINDER_SURFACE_ID,
  DEMO_PAGE_CATALOG_ID,
  GET_LOCALE_FUNCTION,
  SUGGEST_CITIES_FUNCTION,
} from '../shared/city-finder.js';
import type { DemoLogger } from './demo-agent.js';

const V10_BASIC_CATALOG_ID = 'https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json';

/** Cities the agent suggests from, with their ISO 3166 country code. */
export const CITIES: ReadonlyArray<{ readonly name: string; readonly country: string }> = [
  { name: 'Lyon', country: 'FR' },
  { name: 'Lille', country: 'FR' },
  { name: 'Marseille', country: 'FR' },
  { name: 'Paris', country: 'FR' },
  { name: 'Lisbon', country: 'PT' },
  { name: 'Liverpool', country: 'GB' },
  { name: 'London', country: 'GB' },
  { name: 'Leeds', country: 'GB' },
  { name: 'Madrid', country: 'ES' },
  { name: 'Málaga', country: 'ES' },
  { name: 'Munich', country: 'DE' },
  { name: 'Leipzig', country: 'DE' },
  { name: 'Berlin', country: 'DE' },
  { name: 'Los Angeles', country: 'US' },
  { name: 'Louisville', country: 'US' },
  { name: 'Boston', country: 'US' },
  { name: 'Lima', country: 'PE' },
];

/** Most suggestions in one answer. */
export const MAX_SUGGESTIONS = 5;

/** Options of {@link createCityFinderAgent}. */
export interface CityFinderAgentOptions {
  logger?: DemoLogger;
  /** Longest wait for the page's locale, in milliseconds. @default 10000 */
  localeTimeoutMs?: number;
}

/** Lower case without accents, so "mala" finds "Málaga". */
const folded = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/**
 * The suggestions for `prefix`: cities whose name starts with it, those of `region` first, then
 * by name; at most {@link MAX_SUGGESTIONS}. An empty prefix suggests nothing.
 */
export function suggestCities(prefix: string, region?: string): Array<{ name: string }> {
  const wanted = folded(prefix.trim());
  if (wanted === '') return [];
  return CITIES.filter((city) => folded(city.name).startsWith(wanted))
    .sort(
      (a, b) =>
        Number(b.country === region) - Number(a.country === region) || a.name.localeCompare(b.name),
    )
    .slice(0, MAX_SUGGESTIONS)
    .map((city) => ({ name: city.name }));
}

/** The region subtag of a BCP 47 locale (`fr-FR` → `FR`), if it has one. */
export function regionOfLocale(locale: string): string | undefined {
  try {
    return new Intl.Locale(locale).maximize().region;
  } catch {
    return undefined;
  }
}

const note = (value: string): V10ServerMessage => ({
  version: 'v1.0',
  updateDataModel: { surfaceId: CITY_FINDER_SURFACE_ID, path: '/localeNote', value },
});

/** The surface, in one v1.0 `createSurface` (components and data inline). */
function citySurface(): V10ServerMessage {
  return {
    version: 'v1.0',
    createSurface: {
      surfaceId: CITY_FINDER_SURFACE_ID,
      catalogId: V10_BASIC_CATALOG_ID,
      dataModel: {
        query: '',
        suggestions: [],
        localeNote: 'Asking the page for your locale…',
      },
      components: [
        { id: 'root', component: 'Card', child: 'column' },
        {
          id: 'column',
          component: 'Column',
          children: ['title', 'intro', 'query', 'locale-note', 'suggestions'],
        },
        // v1.0 has no heading variants; its Text reads Markdown, whose heading the page renders.
        { id: 'title', component: 'Text', text: '# Find a city' },
        {
          id: 'intro',
          component: 'Text',
          text: 'As you type, the page asks the agent for suggestions (callAgentFunction); the agent asked the page for your locale (callRendererFunction) to put your country first.',
        },
        {
          id: 'query',
          component: 'TextField',
          label: 'City',
          placeholder: 'Start typing, e.g. “Li”',
          value: { path: CITY_FINDER_PATHS.query },
        },
        {
          id: 'locale-note',
          component: 'Text',
          text: { path: '/localeNote' },
          variant: 'caption',
        },
        {
          id: 'suggestions',
          component: 'List',
          children: { componentId: 'suggestion', path: CITY_FINDER_PATHS.suggestions },
        },
        { id: 'suggestion', component: 'Text', text: { path: 'name' } },
      ],
    },
  } as V10ServerMessage;
}

/** What a client that did not negotiate v1.0 sees (in the v0.9 it reads). */
function needsV10(connection: Connection): void {
  connection.send([
    {
      version: 'v0.9',
      createSurface: { surfaceId: CITY_FINDER_SURFACE_ID, catalogId: BASIC_CATALOG_ID },
    },
    {
      version: 'v0.9',
      updateComponents: {
        surfaceId: CITY_FINDER_SURFACE_ID,
        components: [
          {
            id: 'root',
            component: 'Text',
            text: 'The city finder calls functions in both directions, which only A2UI v1.0 carries. Pick “Auto” or “v1.0” as the version (AG-UI carries v0.9 only).',
          },
        ],
      },
    },
  ]);
}

/**
 * Creates the city finder agent.
 *
 * @example
 * ```ts
 * createSseJsonRpcServer({ agent: createCityFinderAgent() });
 * ```
 */
export function createCityFinderAgent(options: CityFinderAgentOptions = {}): A2uiAgent {
  const log = options.logger ?? (() => {});
  return {
    functions: [
      {
        name: SUGGEST_CITIES_FUNCTION,
        description: 'Up to five city names starting with `prefix`, those of `region` first.',
        parameters: {
          type: 'object',
          properties: {
            prefix: { type: 'string', maxLength: 64 },
            region: { type: 'string', pattern: '^[A-Z]{2}$' },
          },
          required: ['prefix'],
          additionalProperties: false,
        },
        handler: (args) => suggestCities(args.prefix as string, args.region as string | undefined),
      },
    ],
    async onConnect(connection) {
      if (!supportsFunctionCalls(connection)) {
        needsV10(connection);
        return;
      }
      connection.send(citySurface());
      try {
        const locale = await connection.callRendererFunction(
          GET_LOCALE_FUNCTION,
          {},
          { catalogId: DEMO_PAGE_CATALOG_ID, timeoutMs: options.localeTimeoutMs ?? 10_000 },
        );
        const region = typeof locale === 'string' ? regionOfLocale(locale) : undefined;
        log('city-finder.locale', { connectionId: connection.id, locale, region });
        if (connection.closed) return;
        connection.send([
          ...(region
            ? [
                {
                  version: 'v1.0',
                  updateDataModel: {
                    surfaceId: CITY_FINDER_SURFACE_ID,
                    path: CITY_FINDER_PATHS.region,
                    value: region,
                  },
                } as V10ServerMessage,
              ]
            : []),
          note(
            region
              ? `Your locale is ${String(locale)}: cities in ${region} come first.`
              : `Your locale is ${String(locale)}.`,
          ),
        ]);
      } catch (error) {
        if (connection.closed) return;
        const code = A2uiError.isInstance(error) ? error.code : 'INTERNAL_ERROR';
        connection.send(
          note(`The page did not tell its locale (${code}); no country comes first.`),
        );
      }
    },
  };
}
