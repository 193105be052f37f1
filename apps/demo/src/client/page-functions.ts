/**
 * What the page does for the city finder (the A2UI v1.0 function-call example, see
 * `../agents/city-finder-agent.ts`): it exposes `getLocale` to agents (`callRendererFunction`),
 * and as the user types in the finder's field it asks the agent for suggestions
 * (`client.callAgentFunction`) and shows the answer on the surface.
 */
import type { A2uiClient, RendererFunction, Surface } from '@a2ui-ts/core';
import {
  CITY_FINDER_PATHS,
  CITY_FINDER_SURFACE_ID,
  DEMO_PAGE_CATALOG_ID,
  GET_LOCALE_FUNCTION,
  SUGGEST_CITIES_FUNCTION,
} from '../shared/city-finder.js';

/** Functions the page exposes to agents. */
export const DEMO_RENDERER_FUNCTIONS: readonly RendererFunction[] = [
  {
    name: GET_LOCALE_FUNCTION,
    catalogId: DEMO_PAGE_CATALOG_ID,
    allowedCallers: 'agentOnly',
    implementation: () => navigator.language,
  },
];

/** Quiet time after a keystroke before the agent is asked, in milliseconds. */
export const SUGGEST_DEBOUNCE_MS = 150;

/**
 * Asks the agent for suggestions whenever the city finder's query changes, while `client` has
 * that surface (a v1.0 one). Only the latest question's answer is shown.
 *
 * @returns stops watching
 */
export function watchCityFinder(client: A2uiClient): () => void {
  let watched: Surface | undefined;
  let unsubscribe: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const ask = (surface: Surface) => {
    const question = ++asked;
    const prefix = String(surface.dataModel.get(CITY_FINDER_PATHS.query) ?? '');
    const region = surface.dataModel.get(CITY_FINDER_PATHS.region);
    client
      .callAgentFunction(surface.surfaceId, {
        call: SUGGEST_CITIES_FUNCTION,
        args: { prefix, ...(typeof region === 'string' ? { region } : {}) },
      })
      .then(
        (suggestions) => {
          if (question === asked && watched === surface)
            surface.dataModel.set(CITY_FINDER_PATHS.suggestions, suggestions);
        },
        // A refusal or a lost link leaves the last suggestions; the inspector shows the answer.
        () => {},
      );
  };
  const follow = () => {
    const surface = client.processor.getSurface(CITY_FINDER_SURFACE_ID);
    const current = surface?.protocolVersion.name === 'v1.0' ? surface : undefined;
    if (current === watched) return;
    unsubscribe?.();
    unsubscribe = undefined;
    watched = current;
    if (!current) return;
    unsubscribe = current.dataModel.subscribe(CITY_FINDER_PATHS.query, () => {
      clearTimeout(timer);
      timer = setTimeout(() => ask(current), SUGGEST_DEBOUNCE_MS);
    });
  };
  const stop = client.processor.subscribe(follow);
  follow();
  return () => {
    stop();
    unsubscribe?.();
    clearTimeout(timer);
  };
}
