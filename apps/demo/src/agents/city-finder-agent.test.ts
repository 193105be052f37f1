import { A2uiClient, createInMemoryTransport } from '@a2ui-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CITY_FINDER_PATHS,
  CITY_FINDER_SURFACE_ID,
  DEMO_PAGE_CATALOG_ID,
  GET_LOCALE_FUNCTION,
  SUGGEST_CITIES_FUNCTION,
} from '../shared/city-finder.js';
import { createCityFinderAgent, regionOfLocale, suggestCities } from './city-finder-agent.js';

const clients: A2uiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function connect(offeredVersions: readonly string[], locale = 'fr-FR') {
  const client = new A2uiClient({
    transport: createInMemoryTransport({ agent: createCityFinderAgent(), offeredVersions }),
    rendererFunctions: [
      {
        name: GET_LOCALE_FUNCTION,
        catalogId: DEMO_PAGE_CATALOG_ID,
        allowedCallers: 'agentOnly',
        implementation: () => locale,
      },
    ],
  });
  clients.push(client);
  void client.connect().catch(() => {});
  return client;
}

describe('suggestCities', () => {
  it('matches the start of a name, accents folded, the region first, at most five', () => {
    expect(suggestCities('li').map((city) => city.name)).toEqual([
      'Lille',
      'Lima',
      'Lisbon',
      'Liverpool',
    ]);
    expect(suggestCities('Li', 'GB')[0]).toEqual({ name: 'Liverpool' });
    expect(suggestCities('mala')).toEqual([{ name: 'Málaga' }]);
    expect(suggestCities('L')).toHaveLength(5);
    expect(suggestCities('  ')).toEqual([]);
    expect(regionOfLocale('fr')).toBe('FR');
    expect(regionOfLocale('not a locale!')).toBeUndefined();
  });
});

describe('createCityFinderAgent', () => {
  it('asks the page for its locale and answers suggestions for that region first (v1.0)', async () => {
    const client = connect(['v1.0'], 'en-GB');
    await expect
      .poll(() =>
        client.processor
          .getSurface(CITY_FINDER_SURFACE_ID)
          ?.dataModel.get(CITY_FINDER_PATHS.region),
      )
      .toBe('GB');
    expect(client.processor.getSurface(CITY_FINDER_SURFACE_ID)!.dataModel.get('/localeNote')).toBe(
      'Your locale is en-GB: cities in GB come first.',
    );
    await expect(
      client.callAgentFunction(CITY_FINDER_SURFACE_ID, {
        call: SUGGEST_CITIES_FUNCTION,
        args: { prefix: 'Li', region: 'GB' },
      }),
    ).resolves.toEqual(suggestCities('Li', 'GB'));
    // Arguments are checked against the function's schema before the handler runs.
    await expect(
      client.callAgentFunction(CITY_FINDER_SURFACE_ID, {
        call: SUGGEST_CITIES_FUNCTION,
        args: { prefix: 5 },
      }),
    ).rejects.toMatchObject({
      code: 'FUNCTION_CALL_FAILED',
      data: { code: 'INVALID_FUNCTION_CALL' },
    });
  });

  it('says the example needs v1.0 to a client that negotiated v0.9', async () => {
    const client = connect(['v0.9']);
    await expect
      .poll(() => client.processor.getSurface(CITY_FINDER_SURFACE_ID)?.protocolVersion.name)
      .toBe('v0.9');
    const root = client.processor.getSurface(CITY_FINDER_SURFACE_ID)!.components.get('root')!;
    expect(String(root.properties.text)).toMatch(/only A2UI v1\.0 carries/);
  });
});
