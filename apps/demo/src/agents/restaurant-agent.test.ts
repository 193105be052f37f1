import { DataContext, evaluateChecks } from '@a2ui-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTestClient, type TestClient } from '../test-support/connect-test-client.js';
import { type Booking, createRestaurantAgent } from './restaurant-agent.js';
import { BOOKING_SURFACES } from './restaurant-surfaces.js';
import { createManualScheduler } from './scheduler.js';

const { search, results, form, confirmation } = BOOKING_SURFACES;

describe('restaurant booking agent', () => {
  let test: TestClient | undefined;
  afterEach(async () => {
    await test?.close();
    test = undefined;
  });

  async function setup() {
    const scheduler = createManualScheduler();
    const bookings: Booking[] = [];
    const agent = createRestaurantAgent({
      scheduler,
      now: () => new Date('2026-06-01T12:00:00Z'),
      onBooking: (booking) => bookings.push(booking),
    });
    test = await connectTestClient(agent);
    const t = test;
    await t.until(() => t.data(search, '/search') !== undefined, 'the search form data');
    return { scheduler, bookings, test };
  }

  /** What a component's `property` shows, resolved like the renderer does, in `scope`. */
  function shown(
    t: TestClient,
    surfaceId: string,
    componentId: string,
    property: string,
    scope?: string,
  ): unknown;
  function shown(
    t: TestClient,
    surfaceId: string,
    componentId: string,
    property: 'checks',
    scope: string | undefined,
    asChecks: true,
  ): ReturnType<typeof evaluateChecks>;
  function shown(
    t: TestClient,
    surfaceId: string,
    componentId: string,
    property: string,
    scope = '/',
    asChecks = false,
  ) {
    const surface = t.client.processor.getSurface(surfaceId)!;
    const record = surface.components.get(componentId)!;
    const context = new DataContext(t.client.getBindingHost(surfaceId), scope);
    const value = (record.properties as Record<string, unknown>)[property];
    return asChecks ? evaluateChecks(value, context) : context.evaluate(value);
  }

  function type(t: TestClient, surfaceId: string, path: string, value: unknown) {
    t.client.processor.getSurface(surfaceId)!.dataModel.set(path, value);
  }

  async function searchLyon(t: TestClient) {
    type(t, search, '/search/query', 'Lyon');
    type(t, search, '/search/date', '2026-06-12');
    type(t, search, '/search/partySize', 4);
    expect(await t.client.dispatchAction(search, 'search-button')).toBe(true);
    await t.until(() => Array.isArray(t.data(results, '/restaurants')), 'results');
  }

  it('opens with a search form whose checks block an incomplete search', async () => {
    const { test: t } = await setup();
    expect(t.surfaceIds()).toEqual([search]);
    expect(t.data(search, '/search')).toEqual({
      query: '',
      cuisine: ['any'],
      date: '',
      partySize: 2,
    });
    type(t, search, '/search/query', 'L');
    expect(await t.client.dispatchAction(search, 'search-button')).toBe(false);
    expect(t.errors).toEqual([]);
  });

  it('lists matching restaurants from the seeded dataset, best rated first', async () => {
    const { test: t } = await setup();
    await searchLyon(t);
    const list = t.data(results, '/restaurants') as Array<{ name: string; tablesLeft: number }>;
    expect(list.map((entry) => entry.name)).toEqual([
      'Maison Brazier',
      'Le Petit Lyon',
      'Sakura',
      'Le Jardin',
      'Trattoria Roma',
      'Le Bouchon Fermé',
    ]);
    await t.until(() => t.data(results, '/summary') !== undefined, 'the summary');
    expect(t.data(results, '/summary')).toBe('6 restaurants for 4 in “Lyon”');
    expect(t.data(results, '/notice')).toBeUndefined();
    // The fully booked restaurant's Book button is disabled by its check (template scope).
    expect(await t.client.dispatchAction(results, 'result-book', { scope: '/restaurants/5' })).toBe(
      false,
    );
    expect(t.errors).toEqual([]);
  });

  it('pushes live "tables left" updates on every clock tick while results are shown', async () => {
    const { test: t, scheduler } = await setup();
    await searchLyon(t);
    expect(scheduler.activeIntervals).toBe(1);
    const before = (t.data(results, '/restaurants') as Array<{ tablesLeft: number }>).map(
      (entry) => entry.tablesLeft,
    );
    scheduler.tick();
    await t.until(
      () => (t.data(results, '/restaurants/1/tablesLeft') as number) === before[1]! - 1,
      'a table taken',
    );
    scheduler.tick();
    await t.until(
      () => (t.data(results, '/restaurants/2/tablesLeft') as number) === before[2]! - 1,
      'another table taken',
    );
  });

  it('shows a notice for an empty result and removes it on the next search', async () => {
    const { test: t } = await setup();
    type(t, search, '/search/query', 'Atlantis');
    type(t, search, '/search/date', '2026-06-12');
    await t.client.dispatchAction(search, 'search-button');
    await t.until(() => typeof t.data(results, '/notice') === 'string', 'the notice');
    expect(t.data(results, '/restaurants')).toEqual([]);
    type(t, search, '/search/query', 'Paris');
    await t.client.dispatchAction(search, 'search-button');
    await t.until(() => t.data(results, '/notice') === undefined, 'the notice removed');
  });

  it('refuses a date in the past and says so on the search form', async () => {
    const { test: t } = await setup();
    type(t, search, '/search/query', 'Lyon');
    type(t, search, '/search/date', '2026-05-31');
    expect(await t.client.dispatchAction(search, 'search-button')).toBe(true);
    await t.until(() => typeof t.data(search, '/searchError') === 'string', 'the error');
    expect(t.data(search, '/searchError')).toBe('Pick today (June 1) or a later date.');
    // Shown at the date field itself, which is invalid until a search the agent accepts.
    expect(shown(t, search, 'search-date', 'checks', undefined, true)).toMatchObject({
      isValid: false,
      messages: ['That date has passed: pick today or a later date.'],
    });
    expect(t.surfaceIds()).toEqual([search]);
    // Today is fine, and the error goes away.
    type(t, search, '/search/date', '2026-06-01');
    await t.client.dispatchAction(search, 'search-button');
    await t.until(() => Array.isArray(t.data(results, '/restaurants')), 'results');
    expect(t.data(search, '/searchError')).toBeUndefined();
    expect(shown(t, search, 'search-date', 'checks', undefined, true).isValid).toBe(true);
  });

  it('says which cities it knows, on the form and when nothing matches', async () => {
    const { test: t } = await setup();
    expect(shown(t, search, 'search-hint', 'text')).toBe('Restaurants in Lyon and Paris.');
    type(t, search, '/search/query', 'Tokyo');
    type(t, search, '/search/date', '2026-06-12');
    await t.client.dispatchAction(search, 'search-button');
    await t.until(() => typeof t.data(results, '/notice') === 'string', 'the notice');
    expect(t.data(results, '/notice')).toBe(
      'Nothing matches “Tokyo”. We list restaurants in Lyon and Paris; try one of them, another cuisine or a smaller party.',
    );
  });

  it('a fully booked restaurant is fully booked on the date searched, not "tonight"', async () => {
    const { test: t } = await setup();
    await searchLyon(t);
    const list = t.data(results, '/restaurants') as Array<{ blurb: string; tablesLeft: number }>;
    expect(list.filter((entry) => /tonight/i.test(entry.blurb))).toEqual([]);
    const booked = list.findIndex((entry) => entry.tablesLeft === 0);
    expect(shown(t, results, 'result-tables', 'text', `/restaurants/${booked}`)).toBe(
      'Fully booked on Friday, June 12',
    );
    expect(shown(t, results, 'result-tables', 'text', '/restaurants/0')).toBe('2 tables left');
  });

  it('labels the party slider without repeating the value it shows', async () => {
    const { test: t } = await setup();
    expect(shown(t, search, 'search-party', 'label')).toBe('Party size');
  });

  it('books a table end to end and confirms with the typed values and the data-model notes', async () => {
    const { test: t, bookings, scheduler } = await setup();
    await searchLyon(t);
    expect(await t.client.dispatchAction(results, 'result-book', { scope: '/restaurants/1' })).toBe(
      true,
    );
    await t.until(() => t.data(form, '/guest') !== undefined, 'the booking form');
    expect(t.surfaceIds()).toEqual([form]);
    expect(t.client.processor.getSurface(form)!.sendDataModel).toBe(true);
    expect(t.data(form, '/restaurant')).toEqual({
      id: 'le-petit-lyon',
      name: 'Le Petit Lyon',
      tablesLeft: 5,
    });

    scheduler.tick();
    await t.until(() => t.data(form, '/restaurant/tablesLeft') === 4, 'the countdown on the form');

    expect(await t.client.dispatchAction(form, 'form-submit')).toBe(false);
    type(t, form, '/guest/name', 'Ada Lovelace');
    type(t, form, '/guest/email', 'ada@example.com');
    type(t, form, '/booking/time', ['19:30']);
    type(t, form, '/guest/notes', 'Window seat');
    expect(await t.client.dispatchAction(form, 'form-submit')).toBe(false);
    type(t, form, '/guest/acceptPolicy', true);
    expect(await t.client.dispatchAction(form, 'form-submit')).toBe(true);

    await t.until(() => t.data(confirmation, '/confirmation') !== undefined, 'the confirmation');
    expect(t.surfaceIds()).toEqual([confirmation]);
    expect(t.data(confirmation, '/confirmation')).toMatchObject({
      restaurantName: 'Le Petit Lyon',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      date: '2026-06-12',
      time: '19:30',
      partySize: 4,
      notes: 'Window seat',
      code: 'TF-LPL-001',
    });
    expect(bookings).toHaveLength(1);
    expect(scheduler.activeIntervals).toBe(0);
    expect(t.errors).toEqual([]);

    await t.client.dispatchAction(confirmation, 'confirm-again');
    await t.until(
      () => t.surfaceIds().join() === search && t.data(search, '/search/query') === '',
      'a fresh search',
    );
  });

  it('counts down the tables on the form in words that agree with the number', async () => {
    const { test: t, scheduler } = await setup();
    await searchLyon(t);
    await t.client.dispatchAction(results, 'result-book', { scope: '/restaurants/1' });
    await t.until(() => t.data(form, '/restaurant/tablesLeft') === 5, 'the booking form');
    expect(shown(t, form, 'form-tables', 'text')).toBe('Hurry: 5 tables left for that night.');
    for (const left of [4, 3, 2, 1]) {
      scheduler.tick();
      await t.until(() => t.data(form, '/restaurant/tablesLeft') === left, `${left} left`);
    }
    expect(shown(t, form, 'form-tables', 'text')).toBe('Hurry: 1 table left for that night.');
    expect(t.errors).toEqual([]);
  });

  it('re-validates on the server and reports a tampered booking in the form', async () => {
    const { test: t, bookings } = await setup();
    await searchLyon(t);
    await t.client.dispatchAction(results, 'result-book', { scope: '/restaurants/0' });
    await t.until(() => t.data(form, '/guest') !== undefined, 'the booking form');
    await t.client.send({
      version: 'v0.9',
      action: {
        name: 'book',
        surfaceId: form,
        sourceComponentId: 'form-submit',
        timestamp: new Date().toISOString(),
        context: {
          restaurantId: 'la-mere-brazier',
          name: 'Ada',
          email: 'not-an-email',
          date: '2026-06-12',
          time: ['19:30'],
          partySize: 4,
        },
      },
    });
    await t.until(() => typeof t.data(form, '/serverError') === 'string', 'the server error');
    expect(t.data(form, '/serverError')).toBe('That email address does not look right.');
    expect(bookings).toHaveLength(0);
  });

  it('goes back from the form to the same results', async () => {
    const { test: t } = await setup();
    await searchLyon(t);
    await t.client.dispatchAction(results, 'result-book', { scope: '/restaurants/0' });
    await t.until(() => t.data(form, '/guest') !== undefined, 'the booking form');
    await t.client.dispatchAction(form, 'form-back');
    await t.until(
      () =>
        Array.isArray(t.data(results, '/restaurants')) && t.data(search, '/search') !== undefined,
      'search and results again',
    );
    expect(t.surfaceIds()).toEqual([search, results]);
    expect(t.data(search, '/search/query')).toBe('Lyon');
    expect((t.data(results, '/restaurants') as unknown[]).length).toBe(6);
  });

  it('stops its clock when the client disconnects', async () => {
    const { test: t, scheduler } = await setup();
    await searchLyon(t);
    expect(scheduler.activeIntervals).toBe(1);
    await t.close();
    // onDisconnect runs on the session's hook queue right after the close.
    await expect.poll(() => scheduler.activeIntervals).toBe(0);
  });
});
