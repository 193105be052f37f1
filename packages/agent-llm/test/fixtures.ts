/** Shared A2UI messages for the tests: a weather card in the basic catalog. */
import { BASIC_CATALOG_ID } from '@a2ui-ts/core';

const v = 'v0.9' as const;

/** A card: root Column → title Text, a refresh Button; `text` is the title's `text` property. */
export function weatherCard(text: unknown = 'Weather in Lyon', surfaceId = 'weather'): unknown[] {
  return [
    { version: v, createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID } },
    { version: v, updateDataModel: { surfaceId, value: { city: 'Lyon', temperature: 21 } } },
    {
      version: v,
      updateComponents: {
        surfaceId,
        components: [
          { id: 'root', component: 'Column', children: ['title', 'temperature', 'refresh'] },
          { id: 'title', component: 'Text', text, variant: 'h2' },
          {
            id: 'temperature',
            component: 'Text',
            text: { call: 'formatString', args: { value: '${/temperature} °C' } },
          },
          {
            id: 'refresh',
            component: 'Button',
            child: 'refresh-label',
            action: { event: { name: 'refresh', context: { city: { path: '/city' } } } },
          },
          { id: 'refresh-label', component: 'Text', text: 'Refresh' },
        ],
      },
    },
  ];
}
