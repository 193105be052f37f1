/**
 * App functions the demo's LLM agent may call: a search over the demo's seeded restaurants
 * (`../restaurant-data.json`, read-only), so the model shows real data instead of inventing it.
 */
import { tool } from 'ai';
import { z } from 'zod';
import type { RestaurantDataset } from '../restaurant-agent.js';
import data from '../restaurant-data.json' with { type: 'json' };

const { restaurants } = data as RestaurantDataset;

/** Most restaurants one search returns (keeps tool results, and the history, small). */
export const MAX_SEARCH_RESULTS = 8;

/** The demo's app tools, in the AI SDK's format. */
export const restaurantTools = {
  findRestaurants: tool({
    description:
      'Searches the demo restaurant dataset. Returns at most 8 restaurants with id, name, city, cuisine, rating (0–5), price (€ to €€€€), maxPartySize, tablesLeft and a one-line blurb.',
    inputSchema: z.object({
      city: z.string().optional().describe('City name, e.g. "Lyon" or "Paris"'),
      cuisine: z.string().optional().describe('e.g. "french", "japanese", "italian"'),
      partySize: z
        .number()
        .int()
        .positive()
        .optional()
        .describe('Guests; fewer-seat places are left out'),
    }),
    execute: async ({ city, cuisine, partySize }) => {
      const matches = restaurants.filter(
        (restaurant) =>
          (city === undefined || restaurant.city.toLowerCase() === city.trim().toLowerCase()) &&
          (cuisine === undefined ||
            restaurant.cuisine.toLowerCase() === cuisine.trim().toLowerCase()) &&
          (partySize === undefined || restaurant.maxPartySize >= partySize),
      );
      return {
        total: matches.length,
        restaurants: matches.slice(0, MAX_SEARCH_RESULTS),
        cities: [...new Set(restaurants.map((restaurant) => restaurant.city))],
      };
    },
  }),
};
