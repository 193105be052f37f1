/**
 * The example agent of `a2ui-mcp-server`: a counter whose buttons are A2UI actions. In its own
 * module so that tests can serve it over Streamable HTTP too (importing `bin.ts` starts stdio).
 */
import { type A2uiAgent, BASIC_CATALOG_ID, type ServerMessage } from '@a2ui-ts/core';

const count = (value: number): ServerMessage => ({
  version: 'v0.9',
  updateDataModel: { surfaceId: 'counter', path: '/count', value },
});

/** The example agent: "Clicked N times", an Add one button and a Reset button. */
export function createCounterAgent(): A2uiAgent {
  let clicks = 0;
  return {
    onConnect(connection) {
      connection.send([
        { version: 'v0.9', createSurface: { surfaceId: 'counter', catalogId: BASIC_CATALOG_ID } },
        {
          version: 'v0.9',
          updateComponents: {
            surfaceId: 'counter',
            components: [
              { id: 'root', component: 'Column', children: ['label', 'buttons'] },
              { id: 'label', component: 'Text', text: { path: '/label' } },
              { id: 'buttons', component: 'Row', children: ['add', 'reset'] },
              {
                id: 'add',
                component: 'Button',
                child: 'add-text',
                action: { event: { name: 'add_one', context: {} } },
              },
              { id: 'add-text', component: 'Text', text: 'Add one' },
              {
                id: 'reset',
                component: 'Button',
                child: 'reset-text',
                action: { event: { name: 'reset', context: {} } },
              },
              { id: 'reset-text', component: 'Text', text: 'Reset' },
            ],
          },
        },
        {
          version: 'v0.9',
          updateDataModel: { surfaceId: 'counter', path: '/label', value: 'Clicked 0 times' },
        },
        count(0),
      ]);
    },
    onAction(connection, action) {
      clicks = action.name === 'reset' ? 0 : clicks + 1;
      process.stderr.write(`a2ui-mcp-server: ${action.name} → ${clicks}\n`);
      connection.send([
        {
          version: 'v0.9',
          updateDataModel: {
            surfaceId: 'counter',
            path: '/label',
            value: `Clicked ${clicks} time${clicks === 1 ? '' : 's'}`,
          },
        },
        count(clicks),
      ]);
    },
  };
}
