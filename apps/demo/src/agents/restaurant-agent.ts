/**
 * The restaurant booking agent: a scripted, deterministic flow over a seeded dataset that uses every
 * server message type and both directions of binding — inputs write the data model, the agent
 * pushes live `updateDataModel` changes (tables left counting down) into it.
 *
 * search form → results (List template over `/restaurants`) → booking form (`sendDataModel: true`)
 * → confirmation, deleting each surface once the user has moved past it.
 */
import {
  type A2uiAgent,
  type ActionEvent,
  type ClientMessageMetadata,
  type Connection,
  readRendererDataModel,
  type ServerMessage,
} from '@a2ui-ts/core';
import type { DemoLogger } from './demo-agent.js';
import seed from './restaurant-data.json' with { type: 'json' };
import {
  BOOKING_SURFACES,
  type CuisineOption,
  confirmationSurface,
  formSurface,
  resultsSurface,
  searchSurface,
} from './restaurant-surfaces.js';
import { createTimerScheduler, type Scheduler } from './scheduler.js';

/** One restaurant of the dataset. */
export interface Restaurant {
  id: string;
  name: string;
  city: string;
  cuisine: string;
  rating: number;
  price: string;
  maxPartySize: number;
  tablesLeft: number;
  blurb: string;
}

/** The seeded dataset (`restaurant-data.json`). */
export interface RestaurantDataset {
  restaurants: readonly Restaurant[];
  cuisines: readonly CuisineOption[];
}

/** What the agent confirmed; handed to `onBooking` for logs and tests. */
export interface Booking {
  code: string;
  restaurantId: string;
  restaurantName: string;
  city: string;
  name: string;
  email: string;
  date: string;
  time: string;
  partySize: number;
  notes: string;
}

/** Options of {@link createRestaurantAgent}. */
export interface RestaurantAgentOptions {
  /** @default the seeded `restaurant-data.json` */
  dataset?: RestaurantDataset;
  /** Drives the live "tables left" updates. @default real timers */
  scheduler?: Scheduler;
  /** How often a table is taken while results or the form are shown, in ms. @default 6000 */
  liveUpdateIntervalMs?: number;
  /** Today, for the date picker's minimum. @default `() => new Date()` */
  now?: () => Date;
  /** Bookable times on the form. @default 18:00 to 21:30, every 30 minutes */
  timeSlots?: readonly string[];
  /** Called for every confirmed booking. */
  onBooking?: (booking: Booking) => void;
  logger?: DemoLogger;
}

interface SearchQuery {
  query: string;
  cuisine: string;
  date: string;
  partySize: number;
}

interface BookingState {
  /** Tables left per restaurant id; each session starts from the seed. */
  readonly tables: Map<string, number>;
  search: SearchQuery | undefined;
  /** Ids shown in `/restaurants`, in order. */
  results: string[];
  selected: Restaurant | undefined;
  /** Which surface the live countdown updates. */
  live: 'results' | 'form' | undefined;
  stopLive: (() => void) | undefined;
  ticks: number;
  bookings: number;
  readonly shown: Set<string>;
}

const v = 'v0.9' as const;
const DEFAULT_TIME_SLOTS = ['18:00', '18:30', '19:00', '19:30', '20:00', '20:30', '21:00', '21:30'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

/**
 * Creates the restaurant booking agent.
 *
 * @example
 * ```ts
 * const scheduler = createManualScheduler();
 * const agent = createRestaurantAgent({ scheduler });
 * ```
 */
export function createRestaurantAgent(options: RestaurantAgentOptions = {}): A2uiAgent {
  const dataset: RestaurantDataset = options.dataset ?? (seed as RestaurantDataset);
  const scheduler = options.scheduler ?? createTimerScheduler();
  const intervalMs = options.liveUpdateIntervalMs ?? 6000;
  const now = options.now ?? (() => new Date());
  const timeSlots = options.timeSlots ?? DEFAULT_TIME_SLOTS;
  const log = options.logger ?? (() => {});
  const states = new Map<string, BookingState>();
  const byId = new Map(dataset.restaurants.map((restaurant) => [restaurant.id, restaurant]));
  const cuisineLabel = (value: string) =>
    dataset.cuisines.find((cuisine) => cuisine.value === value)?.label ?? value;
  /** "Lyon and Paris": the cities of the dataset, in order of first appearance. */
  const cities = new Intl.ListFormat('en', { type: 'conjunction' }).format([
    ...new Set(dataset.restaurants.map((restaurant) => restaurant.city)),
  ]);

  const show = (
    connection: Connection,
    state: BookingState,
    messages: ServerMessage[],
    surfaceId: string,
  ) => {
    state.shown.add(surfaceId);
    connection.send(messages);
  };

  const remove = (connection: Connection, state: BookingState, ...surfaceIds: string[]) => {
    const present = surfaceIds.filter((surfaceId) => state.shown.delete(surfaceId));
    if (present.length > 0)
      connection.send(present.map((surfaceId) => ({ version: v, deleteSurface: { surfaceId } })));
  };

  const setLive = (connection: Connection, state: BookingState, target: BookingState['live']) => {
    state.live = target;
    if (target === undefined) {
      state.stopLive?.();
      state.stopLive = undefined;
      return;
    }
    state.stopLive ??= scheduler.every(intervalMs, () => takeTable(connection, state));
  };

  /** Someone else books a table: the countdown the user sees, pushed into the data model. */
  const takeTable = (connection: Connection, state: BookingState) => {
    if (connection.closed) {
      setLive(connection, state, undefined);
      return;
    }
    state.ticks++;
    if (state.live === 'form' && state.selected) {
      const left = state.tables.get(state.selected.id) ?? 0;
      // The guest's own table stays available: the countdown adds urgency, never a dead end.
      if (left <= 1) return;
      state.tables.set(state.selected.id, left - 1);
      connection.send({
        version: v,
        updateDataModel: {
          surfaceId: BOOKING_SURFACES.form,
          path: '/restaurant/tablesLeft',
          value: left - 1,
        },
      });
      return;
    }
    if (state.live === 'results') {
      const candidates = state.results
        .map((id, index) => ({ id, index }))
        .filter(({ id }) => (state.tables.get(id) ?? 0) > 0);
      const pick = candidates[state.ticks % Math.max(1, candidates.length)];
      if (!pick) return;
      const left = (state.tables.get(pick.id) ?? 0) - 1;
      state.tables.set(pick.id, left);
      const item = `/restaurants/${pick.index}`;
      connection.send([
        {
          version: v,
          updateDataModel: {
            surfaceId: BOOKING_SURFACES.results,
            path: `${item}/tablesLeft`,
            value: left,
          },
        },
        {
          version: v,
          updateDataModel: {
            surfaceId: BOOKING_SURFACES.results,
            path: `${item}/availability`,
            value: availability(left, state.search?.date ?? ''),
          },
        },
      ]);
    }
  };

  const openSearch = (connection: Connection, state: BookingState) => {
    const search = state.search ?? { query: '', cuisine: 'any', date: '', partySize: 2 };
    show(
      connection,
      state,
      searchSurface({
        cuisines: dataset.cuisines,
        minDate: isoDate(now()),
        hint: `Restaurants in ${cities}.`,
      }),
      BOOKING_SURFACES.search,
    );
    connection.send({
      version: v,
      updateDataModel: {
        surfaceId: BOOKING_SURFACES.search,
        path: '/search',
        value: {
          query: search.query,
          cuisine: [search.cuisine],
          date: search.date,
          partySize: search.partySize,
        },
      },
    });
  };

  const showResults = (connection: Connection, state: BookingState, search: SearchQuery) => {
    const needle = search.query.toLowerCase();
    const matches = dataset.restaurants
      .filter(
        (restaurant) =>
          restaurant.city.toLowerCase().includes(needle) ||
          restaurant.name.toLowerCase().includes(needle),
      )
      .filter((restaurant) => search.cuisine === 'any' || restaurant.cuisine === search.cuisine)
      .filter((restaurant) => restaurant.maxPartySize >= search.partySize)
      .sort((a, b) => b.rating - a.rating || a.name.localeCompare(b.name));
    state.search = search;
    state.results = matches.map((restaurant) => restaurant.id);
    const messages: ServerMessage[] = [
      // The search was accepted: clear a previous refusal.
      { version: v, updateDataModel: { surfaceId: BOOKING_SURFACES.search, path: '/searchError' } },
    ];
    if (!state.shown.has(BOOKING_SURFACES.results)) {
      state.shown.add(BOOKING_SURFACES.results);
      messages.push(...resultsSurface());
    }
    const noun = matches.length === 1 ? 'restaurant' : 'restaurants';
    messages.push({
      version: v,
      updateDataModel: {
        surfaceId: BOOKING_SURFACES.results,
        path: '/restaurants',
        value: matches.map((restaurant) => ({
          id: restaurant.id,
          name: restaurant.name,
          city: restaurant.city,
          cuisineLabel: cuisineLabel(restaurant.cuisine),
          rating: restaurant.rating,
          price: restaurant.price,
          blurb: restaurant.blurb,
          tablesLeft: state.tables.get(restaurant.id) ?? 0,
          availability: availability(state.tables.get(restaurant.id) ?? 0, search.date),
        })),
      },
    });
    messages.push({
      version: v,
      updateDataModel: {
        surfaceId: BOOKING_SURFACES.results,
        path: '/summary',
        value: `${matches.length} ${noun} for ${search.partySize} in “${search.query}”`,
      },
    });
    // A notice only when there is something to say; omitting `value` removes the previous one.
    messages.push(
      matches.length === 0
        ? {
            version: v,
            updateDataModel: {
              surfaceId: BOOKING_SURFACES.results,
              path: '/notice',
              value: `Nothing matches “${search.query}”. We list restaurants in ${cities}; try one of them, another cuisine or a smaller party.`,
            },
          }
        : { version: v, updateDataModel: { surfaceId: BOOKING_SURFACES.results, path: '/notice' } },
    );
    connection.send(messages);
    setLive(connection, state, matches.length > 0 ? 'results' : undefined);
  };

  const openForm = (connection: Connection, state: BookingState, restaurant: Restaurant) => {
    const search = state.search!;
    state.selected = restaurant;
    remove(connection, state, BOOKING_SURFACES.results, BOOKING_SURFACES.search);
    show(connection, state, formSurface({ timeSlots }), BOOKING_SURFACES.form);
    connection.send({
      version: v,
      updateDataModel: {
        surfaceId: BOOKING_SURFACES.form,
        value: {
          restaurant: {
            id: restaurant.id,
            name: restaurant.name,
            tablesLeft: state.tables.get(restaurant.id) ?? 0,
          },
          booking: { date: search.date, partySize: search.partySize, time: [] },
          guest: { name: '', email: '', notes: '', acceptPolicy: false },
        },
      },
    });
    setLive(connection, state, 'form');
  };

  const confirm = (
    connection: Connection,
    state: BookingState,
    action: ActionEvent,
    metadata: ClientMessageMetadata | undefined,
  ) => {
    const restaurant = byId.get(String(action.context.restaurantId));
    const formModel = readRecord(readRendererDataModel(metadata)?.surfaces[BOOKING_SURFACES.form]);
    const guest = readRecord(formModel?.guest);
    const name = typeof action.context.name === 'string' ? action.context.name.trim() : '';
    const email = typeof action.context.email === 'string' ? action.context.email.trim() : '';
    const time = Array.isArray(action.context.time)
      ? String(action.context.time[0] ?? '')
      : String(action.context.time ?? '');
    const partySize = Number(action.context.partySize);
    const date = String(action.context.date ?? '');
    // Checks on the client are UX; the agent decides.
    const problem =
      !restaurant || restaurant.id !== state.selected?.id
        ? 'That restaurant is no longer selected.'
        : name.length < 2
          ? 'Your name needs at least 2 characters.'
          : !EMAIL.test(email)
            ? 'That email address does not look right.'
            : !timeSlots.includes(time)
              ? 'Pick one of the listed times.'
              : !ISO_DATE.test(date) ||
                  !Number.isInteger(partySize) ||
                  partySize < 1 ||
                  partySize > restaurant.maxPartySize
                ? 'The date or party size is not bookable any more; go back and search again.'
                : guest?.acceptPolicy !== true
                  ? 'Please accept the cancellation policy.'
                  : (state.tables.get(restaurant.id) ?? 0) < 1
                    ? 'Sorry, the last table was just taken.'
                    : undefined;
    if (problem || !restaurant) {
      connection.send({
        version: v,
        updateDataModel: { surfaceId: BOOKING_SURFACES.form, path: '/serverError', value: problem },
      });
      return;
    }
    state.bookings++;
    state.tables.set(restaurant.id, (state.tables.get(restaurant.id) ?? 1) - 1);
    const booking: Booking = {
      code: `TF-${initials(restaurant.id)}-${String(state.bookings).padStart(3, '0')}`,
      restaurantId: restaurant.id,
      restaurantName: restaurant.name,
      city: restaurant.city,
      name,
      email,
      date,
      time,
      partySize,
      // Not in the action's context: read from the data model the client attached (sendDataModel).
      notes:
        typeof guest?.notes === 'string' && guest.notes.trim() !== '' ? guest.notes.trim() : 'none',
    };
    setLive(connection, state, undefined);
    state.selected = undefined;
    remove(connection, state, BOOKING_SURFACES.form);
    show(connection, state, confirmationSurface(), BOOKING_SURFACES.confirmation);
    connection.send({
      version: v,
      updateDataModel: {
        surfaceId: BOOKING_SURFACES.confirmation,
        path: '/confirmation',
        value: { ...booking },
      },
    });
    log('booking.confirmed', {
      connectionId: connection.id,
      code: booking.code,
      restaurantId: booking.restaurantId,
    });
    options.onBooking?.(booking);
  };

  return {
    onConnect(connection) {
      const state: BookingState = {
        tables: new Map(
          dataset.restaurants.map((restaurant) => [restaurant.id, restaurant.tablesLeft]),
        ),
        search: undefined,
        results: [],
        selected: undefined,
        live: undefined,
        stopLive: undefined,
        ticks: 0,
        bookings: 0,
        shown: new Set(),
      };
      states.set(connection.id, state);
      openSearch(connection, state);
    },
    onAction(connection, action, metadata) {
      const state = states.get(connection.id);
      if (!state) return;
      switch (action.name) {
        case 'search': {
          const search = readSearch(action.context);
          const today = isoDate(now());
          if (search && search.date < today) {
            // The date picker's `min` is a hint a typed date can ignore; the agent decides.
            connection.send({
              version: v,
              updateDataModel: {
                surfaceId: BOOKING_SURFACES.search,
                path: '/searchError',
                value: `Pick today (${formatDay(today)}) or a later date.`,
              },
            });
            return;
          }
          if (!search) {
            log('agent.rejected', {
              agent: 'restaurant',
              connectionId: connection.id,
              action: action.name,
            });
            return;
          }
          showResults(connection, state, search);
          return;
        }
        case 'select': {
          const restaurant = byId.get(String(action.context.restaurantId));
          if (
            !restaurant ||
            !state.search ||
            !state.results.includes(restaurant.id) ||
            (state.tables.get(restaurant.id) ?? 0) < 1
          )
            return;
          openForm(connection, state, restaurant);
          return;
        }
        case 'book':
          confirm(connection, state, action, metadata);
          return;
        case 'back':
          setLive(connection, state, undefined);
          state.selected = undefined;
          remove(connection, state, BOOKING_SURFACES.form);
          openSearch(connection, state);
          if (state.search) showResults(connection, state, state.search);
          return;
        case 'restart':
          remove(connection, state, BOOKING_SURFACES.confirmation);
          state.search = undefined;
          openSearch(connection, state);
          return;
        default:
          log('agent.unknown_action', {
            agent: 'restaurant',
            connectionId: connection.id,
            action: action.name,
          });
      }
    },
    onDisconnect(connection) {
      const state = states.get(connection.id);
      if (state) setLive(connection, state, undefined);
      states.delete(connection.id);
    },
  };
}

function readSearch(context: Record<string, unknown>): SearchQuery | undefined {
  const query = typeof context.query === 'string' ? context.query.trim() : '';
  const cuisine =
    Array.isArray(context.cuisine) && typeof context.cuisine[0] === 'string'
      ? context.cuisine[0]
      : 'any';
  const date = typeof context.date === 'string' ? context.date : '';
  const partySize = Math.round(Number(context.partySize));
  if (
    query.length < 2 ||
    !ISO_DATE.test(date) ||
    !Number.isFinite(partySize) ||
    partySize < 1 ||
    partySize > 12
  )
    return undefined;
  return { query, cuisine, date: date.slice(0, 10), partySize };
}

function readRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function initials(id: string): string {
  return id
    .split('-')
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** `2026-06-01` → "June 1" (or "Monday, June 1" with the weekday). */
function formatDay(isoDay: string, withWeekday = false): string {
  return new Intl.DateTimeFormat('en', {
    ...(withWeekday ? { weekday: 'long' } : {}),
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${isoDay}T00:00:00Z`));
}

/** What a result says about its tables on the searched date. */
function availability(tablesLeft: number, isoDay: string): string {
  if (tablesLeft <= 0)
    return ISO_DATE.test(isoDay) ? `Fully booked on ${formatDay(isoDay, true)}` : 'Fully booked';
  return tablesLeft === 1 ? 'Last table left!' : `${tablesLeft} tables left`;
}
