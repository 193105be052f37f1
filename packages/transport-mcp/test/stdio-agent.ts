/**
 * An A2UI agent served over MCP stdio, launched by `serve-mcp-stdio.test.ts` as a child process
 * (as a desktop MCP host launches one): a form on connect, a status per action.
 */
import { BASIC_CATALOG_ID } from '@a2ui-ts/core';
import { serveMcpStdio } from '../src/index.js';

await serveMcpStdio({
  agent: {
    onConnect: (connection) =>
      connection.send([
        { version: 'v0.9', createSurface: { surfaceId: 'form', catalogId: BASIC_CATALOG_ID } },
        {
          version: 'v0.9',
          updateComponents: {
            surfaceId: 'form',
            components: [{ id: 'root', component: 'Text', text: 'Hello from stdio' }],
          },
        },
      ]),
    onAction: (connection, action) =>
      connection.send({
        version: 'v0.9',
        updateDataModel: { surfaceId: 'form', path: '/last', value: action.name },
      }),
  },
});
