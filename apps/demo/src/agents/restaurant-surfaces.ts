/**
 * The four surfaces of the restaurant booking agent, as A2UI v0.9 messages. Kept apart from the
 * agent's logic so the flow reads as a script.
 */
import {
  BASIC_CATALOG_ID,
  type ComponentInstance,
  type FunctionCall,
  type ServerMessage,
} from '@a2ui-ts/core';

const v = 'v0.9' as const;

/** Surface ids of the booking flow, in the order a user meets them. */
export const BOOKING_SURFACES = {
  search: 'booking-search',
  results: 'booking-results',
  form: 'booking-form',
  confirmation: 'booking-confirmation',
} as const;

/** Brand of every booking surface. */
export const BOOKING_THEME = { primaryColor: '#b45309', agentDisplayName: 'Table Finder' };

/** One cuisine of the picker. */
export interface CuisineOption {
  value: string;
  label: string;
}

const required = (path: string): FunctionCall => ({ call: 'required', args: { value: { path } } });
const minLength = (path: string, min: number): FunctionCall => ({
  call: 'length',
  args: { value: { path }, min },
});
const format = (value: string): FunctionCall => ({
  call: 'formatString',
  args: { value },
  returnType: 'string',
});
const text = (id: string, value: ComponentInstance['text'], variant?: string): ComponentInstance =>
  variant
    ? { id, component: 'Text', text: value, variant }
    : { id, component: 'Text', text: value };

/** `createSurface` + components of the search form; its data model is sent separately. */
export function searchSurface(options: {
  cuisines: readonly CuisineOption[];
  minDate: string;
  /** Shown under the query field, e.g. "Restaurants in Lyon and Paris." */
  hint: string;
}): ServerMessage[] {
  const surfaceId = BOOKING_SURFACES.search;
  return [
    { version: v, createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID, theme: BOOKING_THEME } },
    {
      version: v,
      updateComponents: {
        surfaceId,
        components: [
          { id: 'root', component: 'Card', child: 'search-column' },
          {
            id: 'search-column',
            component: 'Column',
            children: [
              'search-title',
              'search-query',
              'search-hint',
              'search-cuisine',
              'search-date',
              'search-party',
              'search-button',
            ],
          },
          text('search-title', 'Find a table', 'h1'),
          {
            id: 'search-query',
            component: 'TextField',
            label: 'City or restaurant',
            value: { path: '/search/query' },
            checks: [
              {
                condition: required('/search/query'),
                message: 'Tell us a city or a restaurant name.',
              },
              { condition: minLength('/search/query', 2), message: 'Use at least 2 characters.' },
            ],
          },
          text('search-hint', options.hint, 'caption'),
          {
            id: 'search-cuisine',
            component: 'ChoicePicker',
            label: 'Cuisine',
            options: options.cuisines.map((cuisine) => ({
              label: cuisine.label,
              value: cuisine.value,
            })),
            value: { path: '/search/cuisine' },
            variant: 'mutuallyExclusive',
            displayStyle: 'chips',
          },
          {
            id: 'search-date',
            component: 'DateTimeInput',
            label: 'Date',
            value: { path: '/search/date' },
            enableDate: true,
            min: options.minDate,
            checks: [
              { condition: required('/search/date'), message: 'Pick a date.' },
              // The agent's own verdict on the date (a typed date can ignore `min`), shown at the
              // field, marked invalid and announced, until a search it accepts clears it.
              {
                condition: { call: 'not', args: { value: required('/searchError') } },
                message: 'That date has passed: pick today or a later date.',
              },
            ],
          },
          {
            id: 'search-party',
            component: 'Slider',
            // The slider shows its value beside it; the label names what it sets.
            label: 'Party size',
            value: { path: '/search/partySize' },
            min: 1,
            max: 12,
            checks: [
              {
                condition: {
                  call: 'numeric',
                  args: { value: { path: '/search/partySize' }, min: 1, max: 12 },
                },
                message: 'Parties of 1 to 12.',
              },
            ],
          },
          {
            id: 'search-button',
            component: 'Button',
            child: 'search-button-label',
            variant: 'primary',
            checks: [
              {
                condition: {
                  call: 'and',
                  args: {
                    values: [
                      required('/search/query'),
                      minLength('/search/query', 2),
                      required('/search/date'),
                    ],
                  },
                },
                message: 'Fill in the form to search.',
              },
            ],
            action: {
              event: {
                name: 'search',
                context: {
                  query: { path: '/search/query' },
                  cuisine: { path: '/search/cuisine' },
                  date: { path: '/search/date' },
                  partySize: { path: '/search/partySize' },
                },
              },
            },
          },
          text('search-button-label', 'Find tables'),
        ],
      },
    },
  ];
}

/** `createSurface` + components of the results list (a List template over `/restaurants`). */
export function resultsSurface(): ServerMessage[] {
  const surfaceId = BOOKING_SURFACES.results;
  return [
    { version: v, createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID, theme: BOOKING_THEME } },
    {
      version: v,
      updateComponents: {
        surfaceId,
        components: [
          {
            id: 'root',
            component: 'Column',
            children: ['results-summary', 'results-notice', 'results-list'],
          },
          // The surface's own title (h1, under the page's section), the restaurants nested under
          // it (h2): a heading list reads "6 restaurants…" then each restaurant one level down.
          text('results-summary', { path: '/summary' }, 'h1'),
          text('results-notice', { path: '/notice' }, 'caption'),
          {
            id: 'results-list',
            component: 'List',
            children: { componentId: 'result-card', path: '/restaurants' },
          },
          { id: 'result-card', component: 'Card', child: 'result-row' },
          {
            id: 'result-row',
            component: 'Row',
            children: ['result-info', 'result-book'],
            align: 'center',
          },
          {
            id: 'result-info',
            component: 'Column',
            children: ['result-name', 'result-meta', 'result-blurb', 'result-tables'],
            weight: 1,
          },
          text('result-name', { path: 'name' }, 'h2'),
          text(
            'result-meta',
            format('${cuisineLabel} · ${city} · ${price} · ★ ${rating}'),
            'caption',
          ),
          text('result-blurb', { path: 'blurb' }),
          // Written by the agent: availability is per date, and CLDR English has no "zero"
          // plural category for `pluralize` to pick "Fully booked" with.
          text('result-tables', { path: 'availability' }, 'caption'),
          {
            id: 'result-book',
            component: 'Button',
            child: 'result-book-label',
            variant: 'primary',
            accessibility: { label: format('Book ${name}') },
            checks: [
              {
                condition: { call: 'numeric', args: { value: { path: 'tablesLeft' }, min: 1 } },
                // The row's availability line already says "Fully booked on …": say what to do.
                message: 'Try another date.',
              },
            ],
            action: { event: { name: 'select', context: { restaurantId: { path: 'id' } } } },
          },
          text('result-book-label', 'Book'),
        ],
      },
    },
  ];
}

/** `createSurface` (with `sendDataModel: true`) + components of the booking form. */
export function formSurface(options: { timeSlots: readonly string[] }): ServerMessage[] {
  const surfaceId = BOOKING_SURFACES.form;
  return [
    {
      version: v,
      createSurface: {
        surfaceId,
        catalogId: BASIC_CATALOG_ID,
        theme: BOOKING_THEME,
        sendDataModel: true,
      },
    },
    {
      version: v,
      updateComponents: {
        surfaceId,
        components: [
          { id: 'root', component: 'Card', child: 'form-column' },
          {
            id: 'form-column',
            component: 'Column',
            children: [
              'form-title',
              'form-summary',
              'form-tables',
              'form-name',
              'form-email',
              'form-time',
              'form-notes',
              'form-policy',
              'form-error',
              'form-actions',
            ],
          },
          text('form-title', format('Book ${/restaurant/name}'), 'h1'),
          text(
            'form-summary',
            format(
              "Party of ${/booking/partySize} on ${formatDate(value: ${/booking/date}, format: 'EEEE, MMMM d')}",
            ),
          ),
          text(
            'form-tables',
            format(
              "Hurry: ${/restaurant/tablesLeft} ${pluralize(value: ${/restaurant/tablesLeft}, one: 'table', other: 'tables')} left for that night.",
            ),
            'caption',
          ),
          {
            id: 'form-name',
            component: 'TextField',
            label: 'Full name',
            value: { path: '/guest/name' },
            checks: [
              { condition: required('/guest/name'), message: 'Your name is required.' },
              { condition: minLength('/guest/name', 2), message: 'Use at least 2 characters.' },
            ],
          },
          {
            id: 'form-email',
            component: 'TextField',
            label: 'Email',
            value: { path: '/guest/email' },
            checks: [
              { condition: required('/guest/email'), message: 'Your email is required.' },
              {
                condition: { call: 'email', args: { value: { path: '/guest/email' } } },
                message: 'Enter a valid email address.',
              },
            ],
          },
          {
            id: 'form-time',
            component: 'ChoicePicker',
            label: 'Time',
            options: options.timeSlots.map((slot) => ({ label: slot, value: slot })),
            value: { path: '/booking/time' },
            variant: 'mutuallyExclusive',
            displayStyle: 'chips',
            checks: [{ condition: required('/booking/time'), message: 'Pick a time.' }],
          },
          {
            id: 'form-notes',
            component: 'TextField',
            label: 'Special requests (optional)',
            value: { path: '/guest/notes' },
            variant: 'longText',
          },
          {
            id: 'form-policy',
            component: 'CheckBox',
            label: 'I accept the cancellation policy',
            value: { path: '/guest/acceptPolicy' },
            checks: [
              {
                condition: { path: '/guest/acceptPolicy' },
                message: 'Please accept the cancellation policy.',
              },
            ],
          },
          text('form-error', { path: '/serverError' }, 'caption'),
          {
            id: 'form-actions',
            component: 'Row',
            children: ['form-back', 'form-submit'],
            justify: 'spaceBetween',
          },
          {
            id: 'form-back',
            component: 'Button',
            child: 'form-back-label',
            variant: 'borderless',
            action: { event: { name: 'back' } },
          },
          text('form-back-label', 'Back to results'),
          {
            id: 'form-submit',
            component: 'Button',
            child: 'form-submit-label',
            variant: 'primary',
            // One check per field, so a disabled Confirm names what is still missing.
            checks: [
              { condition: minLength('/guest/name', 2), message: 'Enter your name.' },
              {
                condition: { call: 'email', args: { value: { path: '/guest/email' } } },
                message: 'Enter a valid email.',
              },
              { condition: required('/booking/time'), message: 'Pick a time.' },
              { condition: { path: '/guest/acceptPolicy' }, message: 'Accept the policy.' },
            ],
            action: {
              event: {
                name: 'book',
                context: {
                  restaurantId: { path: '/restaurant/id' },
                  name: { path: '/guest/name' },
                  email: { path: '/guest/email' },
                  date: { path: '/booking/date' },
                  time: { path: '/booking/time' },
                  partySize: { path: '/booking/partySize' },
                },
              },
            },
          },
          text('form-submit-label', 'Confirm booking'),
        ],
      },
    },
  ];
}

/** `createSurface` + components of the confirmation; its data model is sent separately. */
export function confirmationSurface(): ServerMessage[] {
  const surfaceId = BOOKING_SURFACES.confirmation;
  return [
    { version: v, createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID, theme: BOOKING_THEME } },
    {
      version: v,
      updateComponents: {
        surfaceId,
        components: [
          { id: 'root', component: 'Card', child: 'confirm-column' },
          {
            id: 'confirm-column',
            component: 'Column',
            children: [
              'confirm-heading',
              'confirm-where',
              'confirm-when',
              'confirm-guest',
              'confirm-notes',
              'confirm-code',
              'confirm-divider',
              'confirm-again',
            ],
          },
          {
            id: 'confirm-heading',
            component: 'Row',
            children: ['confirm-icon', 'confirm-title'],
            align: 'center',
          },
          { id: 'confirm-icon', component: 'Icon', name: 'check' },
          text('confirm-title', 'You’re booked!', 'h1'),
          text(
            'confirm-where',
            format(
              'Table for ${/confirmation/partySize} at ${/confirmation/restaurantName}, ${/confirmation/city}',
            ),
          ),
          text(
            'confirm-when',
            format(
              "${formatDate(value: ${/confirmation/date}, format: 'EEEE, MMMM d, yyyy')} at ${/confirmation/time}",
            ),
          ),
          text(
            'confirm-guest',
            format('Booked for ${/confirmation/name} (${/confirmation/email})'),
          ),
          text('confirm-notes', format('Requests: ${/confirmation/notes}'), 'caption'),
          text('confirm-code', format('Confirmation code ${/confirmation/code}'), 'caption'),
          { id: 'confirm-divider', component: 'Divider' },
          {
            id: 'confirm-again',
            component: 'Button',
            child: 'confirm-again-label',
            action: { event: { name: 'restart' } },
          },
          text('confirm-again-label', 'Make another booking'),
        ],
      },
    },
  ];
}
