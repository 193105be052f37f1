/**
 * The names the city finder (the demo's A2UI v1.0 function-call example) shares between its
 * agent (`../agents/city-finder-agent.ts`) and the page (`../client/city-finder-page.ts`).
 */

/** The agent's surface. */
export const CITY_FINDER_SURFACE_ID = 'city-finder';

/**
 * The catalog the page's own functions belong to (the renderer resolves a
 * `callRendererFunction` by name; the id says where the function is defined).
 */
export const DEMO_PAGE_CATALOG_ID = 'https://a2ui-ts.dev/demo/page-functions/v1';

/** Renderer function: the user's locale (BCP 47, e.g. `fr-FR`), from the browser. */
export const GET_LOCALE_FUNCTION = 'getLocale';

/** Agent function: `{prefix, region?}` → up to 5 city names starting with `prefix`. */
export const SUGGEST_CITIES_FUNCTION = 'suggestCities';

/** Where the surface keeps what the user typed, the suggestions and the user's region. */
export const CITY_FINDER_PATHS = {
  query: '/query',
  suggestions: '/suggestions',
  region: '/region',
} as const;
