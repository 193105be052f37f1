/**
 * The frontend-tool example: the agent asks the page for the user's time zone. Over AG-UI the
 * page declares a `getTimeZone` tool; the agent calls it with `connection.callHostTool`, which ends
 * the run, and carries on when the next run brings the page's answer. Over a transport that
 * carries no tool calls the agent says so instead.
 */
import {
  type A2uiAgent,
  A2uiError,
  BASIC_CATALOG_ID,
  type Connection,
  type ServerMessage,
} from '@a2ui-ts/core';
import type { DemoLogger } from './demo-agent.js';

/** The tool the page offers (see `DEMO_FRONTEND_TOOLS` in the client). */
export const TIME_ZONE_TOOL = 'getTimeZone';
const SURFACE_ID = 'local-time';
const v = 'v0.9' as const;

/** Options of {@link createTimeZoneAgent}. */
export interface TimeZoneAgentOptions {
  /** The current time. @default `() => new Date()` */
  now?: () => Date;
  logger?: DemoLogger;
}

const status = (value: string): ServerMessage => ({
  version: v,
  updateDataModel: { surfaceId: SURFACE_ID, path: '/status', value },
});

/**
 * Creates the time-zone agent.
 *
 * @example
 * ```ts
 * createTimeZoneAgent({ now: () => new Date('2026-09-22T12:00:00Z') });
 * ```
 */
export function createTimeZoneAgent(options: TimeZoneAgentOptions = {}): A2uiAgent {
  const now = options.now ?? (() => new Date());
  const log = options.logger ?? (() => {});
  return {
    onConnect(connection) {
      connection.send([
        { version: v, createSurface: { surfaceId: SURFACE_ID, catalogId: BASIC_CATALOG_ID } },
        {
          version: v,
          updateComponents: {
            surfaceId: SURFACE_ID,
            components: [
              { id: 'root', component: 'Card', child: 'column' },
              { id: 'column', component: 'Column', children: ['title', 'status', 'ask'] },
              {
                id: 'title',
                component: 'Text',
                text: 'What time is it where you are?',
                variant: 'h1',
              },
              { id: 'status', component: 'Text', text: { path: '/status' } },
              {
                id: 'ask',
                component: 'Button',
                child: 'ask-label',
                variant: 'primary',
                action: { event: { name: 'ask-time-zone' } },
              },
              { id: 'ask-label', component: 'Text', text: 'Ask my browser' },
            ],
          },
        },
        status('The agent does not know your time zone yet.'),
      ]);
    },
    async onAction(connection, action) {
      if (action.name !== 'ask-time-zone') return;
      await askTimeZone(connection, now, log);
    },
  };
}

async function askTimeZone(connection: Connection, now: () => Date, log: DemoLogger) {
  if (!connection.hostTools.some((tool) => tool.name === TIME_ZONE_TOOL)) {
    connection.send(status('This transport carries no frontend tools: pick an AG-UI transport.'));
    return;
  }
  connection.send(status('Asking your browser…'));
  try {
    const result = await connection.callHostTool({ name: TIME_ZONE_TOOL, args: {} });
    if (result.error !== undefined) throw new Error(result.error);
    const timeZone = result.content.trim();
    const time = new Intl.DateTimeFormat('en-GB', { timeZone, timeStyle: 'short' }).format(now());
    log('tool.result', { tool: TIME_ZONE_TOOL, timeZone });
    connection.send(status(`Your browser says you are in ${timeZone}, where it is ${time}.`));
  } catch (error) {
    if (connection.closed) return;
    const message =
      A2uiError.isInstance(error) || error instanceof Error ? error.message : String(error);
    connection.send(status(`The browser could not answer: ${message}`));
  }
}
