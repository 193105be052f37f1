/**
 * The agent of the quick start: a name field and a button; the agent answers every click.
 */
import { type A2uiAgent, BASIC_CATALOG_ID } from '@a2ui-ts/core';

const v = 'v0.9' as const;

/** Asks for a name and greets whoever clicks. */
export const greetingAgent: A2uiAgent = {
  onConnect(connection) {
    connection.send([
      { version: v, createSurface: { surfaceId: 'greeting', catalogId: BASIC_CATALOG_ID } },
      {
        version: v,
        updateComponents: {
          surfaceId: 'greeting',
          components: [
            { id: 'root', component: 'Card', child: 'column' },
            { id: 'column', component: 'Column', children: ['title', 'name', 'greet', 'answer'] },
            { id: 'title', component: 'Text', text: 'Hello, A2UI', variant: 'h2' },
            {
              id: 'name',
              component: 'TextField',
              label: 'Your name',
              value: { path: '/name' },
              checks: [
                {
                  condition: { call: 'required', args: { value: { path: '/name' } } },
                  message: 'Tell me your name.',
                },
              ],
            },
            {
              id: 'greet',
              component: 'Button',
              child: 'greet-label',
              variant: 'primary',
              checks: [
                {
                  condition: { call: 'required', args: { value: { path: '/name' } } },
                  message: 'Type a name first.',
                },
              ],
              action: { event: { name: 'greet', context: { name: { path: '/name' } } } },
            },
            { id: 'greet-label', component: 'Text', text: 'Greet me' },
            { id: 'answer', component: 'Text', text: { path: '/answer' } },
          ],
        },
      },
      { version: v, updateDataModel: { surfaceId: 'greeting', value: { name: '' } } },
    ]);
  },
  onAction(connection, action) {
    if (action.name !== 'greet') return;
    const name = typeof action.context.name === 'string' ? action.context.name.trim() : '';
    connection.send({
      version: v,
      updateDataModel: {
        surfaceId: 'greeting',
        path: '/answer',
        value: `Nice to meet you, **${name || 'stranger'}**!`,
      },
    });
  },
};
