/**
 * The gallery agent: streams any official example, or a stream the user pasted or uploaded, one
 * message at a time, and echoes actions from the streamed surfaces back as a confirmation surface.
 */
import { checkMessages, isReadFailure, type ReadMessage, readMessages } from '@a2ui-ts/cli';
import {
  type A2uiAgent,
  type ActionEvent,
  BASIC_CATALOG_ID,
  type ComponentInstance,
  type Connection,
  createDefaultCatalogs,
  detectMessageVersion,
  emitVersionOf,
  isRecord,
  MessageProcessor,
  type MigrationVersion,
  migrateMessages,
  type ServerMessage,
  utf8ByteLength,
} from '@a2ui-ts/core';
import {
  MAX_LISTED_PROBLEMS,
  MAX_PASTED_STREAM_BYTES,
  tooLargeMessage,
} from '../shared/pasted-stream-limits.js';
import type { DemoLogger } from './demo-agent.js';
import { type ExampleStream, loadExampleStreams } from './example-streams.js';
import { describePastedProblems, type PastedStreamProblem } from './pasted-stream-problems.js';
import { createTimerScheduler, type Scheduler } from './scheduler.js';

/** Id of the surface holding the example list and the delay slider. */
export const GALLERY_CONTROLS_SURFACE_ID = 'gallery-controls';
/** Id of the surface that lists what is wrong with a rejected stream. */
export const GALLERY_ERRORS_SURFACE_ID = 'gallery-stream-errors';
/** Id of the surface that echoes actions from streamed surfaces. */
export const GALLERY_ECHO_SURFACE_ID = 'gallery-action-echo';
/** Action the client sends with a pasted or uploaded stream: context `{text, fileName?, delayMs?}`. */
export const LOAD_STREAM_ACTION = 'loadStream';
/**
 * The protocol versions the gallery streams an example in: the official v0.9 file as shipped, or
 * converted with `migrateMessages` (what `a2ui migrate --to <version>` writes).
 */
export const GALLERY_VERSIONS: readonly MigrationVersion[] = ['v0.8', 'v0.9', 'v1.0'];
/** The version picked when the connection's negotiated version is not one the picker offers. */
export const DEFAULT_GALLERY_VERSION: MigrationVersion = 'v0.9';

/**
 * The version the picker starts at: the one the connection negotiated (what the page's version
 * badge shows), so the page and the gallery name one version until the user picks another.
 */
export function initialGalleryVersion(
  connection: Pick<Connection, 'protocolVersions'>,
  offered: readonly MigrationVersion[],
): MigrationVersion {
  const negotiated = emitVersionOf(connection);
  const version: MigrationVersion = negotiated === 'v0.9.1' ? 'v0.9' : negotiated;
  return offered.includes(version) ? version : DEFAULT_GALLERY_VERSION;
}

/** Options of {@link createGalleryAgent}. */
export interface GalleryAgentOptions {
  /** @default the copies of the official examples (`loadExampleStreams()`) */
  examples?: readonly ExampleStream[];
  /** Delay between streamed messages until the user moves the slider, in ms. @default 300 */
  defaultDelayMs?: number;
  /** Largest delay the slider allows, in ms. @default 2000 */
  maxDelayMs?: number;
  /** @default real timers */
  scheduler?: Scheduler;
  logger?: DemoLogger;
  /**
   * The versions the picker offers (a transport that carries fewer offers fewer).
   * @default {@link GALLERY_VERSIONS}
   */
  versions?: readonly MigrationVersion[];
}

interface GalleryState {
  playback: AbortController | undefined;
  /**
   * Surfaces created by streamed messages (and the echo / error surfaces), each with the version
   * it was created in: deleted, in that version, before the next stream.
   */
  readonly shown: Map<string, MigrationVersion>;
  /** Actions echoed on this connection. */
  echoed: number;
}

const v = 'v0.9' as const;

/** Why a minimal-catalog example's Play button is disabled while another version is picked. */
// Short, as it shows under each of those buttons; the intro says it once in full.
const MINIMAL_CATALOG_VERSION_NOTE = `${v} only`;

/**
 * Creates the gallery agent.
 *
 * @example
 * ```ts
 * const client = new A2uiClient({ transport: createInMemoryTransport({ agent: createGalleryAgent() }) });
 * ```
 */
export function createGalleryAgent(options: GalleryAgentOptions = {}): A2uiAgent {
  const examples = options.examples ?? loadExampleStreams();
  const defaultDelayMs = options.defaultDelayMs ?? 300;
  const maxDelayMs = options.maxDelayMs ?? 2000;
  const scheduler = options.scheduler ?? createTimerScheduler();
  const log = options.logger ?? (() => {});
  const versions = options.versions ?? GALLERY_VERSIONS;
  const states = new Map<string, GalleryState>();

  const status = (connection: Connection, text: string) => {
    connection.send({
      version: v,
      updateDataModel: { surfaceId: GALLERY_CONTROLS_SURFACE_ID, path: '/status', value: text },
    });
  };

  const clearShown = (connection: Connection, state: GalleryState) => {
    // A surface only takes messages of the version it was created in.
    const deletes = [...state.shown].flatMap(([surfaceId, version]) =>
      inVersion([{ version: v, deleteSurface: { surfaceId } }], version),
    );
    state.shown.clear();
    if (deletes.length > 0) connection.send(deletes);
  };

  const play = (
    connection: Connection,
    state: GalleryState,
    title: string,
    messages: readonly unknown[],
    delayMs: number,
    description?: string,
  ) => {
    state.playback?.abort();
    const playback = new AbortController();
    state.playback = playback;
    const signal = AbortSignal.any([playback.signal, connection.signal]);
    clearShown(connection, state);
    status(connection, `Streaming “${title}”: ${messages.length} messages, ${delayMs} ms apart…`);
    // Streaming runs beside the hook, so later actions (another Play, an action from the stream)
    // are handled while it runs instead of queueing behind it.
    void (async () => {
      try {
        for (const message of messages) {
          await scheduler.sleep(delayMs, signal);
          const created = createdSurface(message);
          if (created) state.shown.set(created.surfaceId, created.version);
          connection.send(message as ServerMessage);
        }
        status(
          connection,
          `Finished “${title}”: ${messages.length} messages.${description ? ` ${description}` : ''}`,
        );
      } catch (error) {
        if (signal.aborted) return;
        log('agent.error', {
          agent: 'gallery',
          connectionId: connection.id,
          message: (error as Error).message,
        });
        status(connection, `Stopped “${title}”: ${(error as Error).message}`);
      } finally {
        if (state.playback === playback) state.playback = undefined;
      }
    })();
  };

  const showIssues = (
    connection: Connection,
    state: GalleryState,
    title: string,
    problems: readonly PastedStreamProblem[],
    heading = `“${title}” has ${count(problems.length, 'problem')}; nothing was streamed.${
      problems.length > MAX_LISTED_PROBLEMS
        ? ` The first ${MAX_LISTED_PROBLEMS} are listed; \`pnpm --silent a2ui validate <file>\` lists them all.`
        : ''
    }`,
  ) => {
    state.playback?.abort();
    clearShown(connection, state);
    state.shown.set(GALLERY_ERRORS_SURFACE_ID, v);
    connection.send([
      {
        version: v,
        createSurface: { surfaceId: GALLERY_ERRORS_SURFACE_ID, catalogId: BASIC_CATALOG_ID },
      },
      {
        version: v,
        updateDataModel: {
          surfaceId: GALLERY_ERRORS_SURFACE_ID,
          value: {
            title: heading,
            // What `a2ui validate` prints, numbered by the line of the text (the panel marks it).
            issues: problems.slice(0, MAX_LISTED_PROBLEMS),
          },
        },
      },
      {
        version: v,
        updateComponents: {
          surfaceId: GALLERY_ERRORS_SURFACE_ID,
          components: [
            { id: 'root', component: 'Card', child: 'errors-column' },
            {
              id: 'errors-column',
              component: 'Column',
              children: ['errors-heading', 'errors-title', 'errors-list'],
            },
            {
              id: 'errors-heading',
              component: 'Row',
              children: ['errors-icon', 'errors-heading-text'],
              align: 'center',
            },
            { id: 'errors-icon', component: 'Icon', name: 'error' },
            { id: 'errors-heading-text', component: 'Text', text: 'Invalid stream', variant: 'h2' },
            { id: 'errors-title', component: 'Text', text: { path: '/title' } },
            {
              id: 'errors-list',
              component: 'List',
              children: { componentId: 'error-item', path: '/issues' },
            },
            { id: 'error-item', component: 'Column', children: ['error-where', 'error-message'] },
            { id: 'error-where', component: 'Text', text: { path: 'where' }, variant: 'caption' },
            { id: 'error-message', component: 'Text', text: { path: 'message' } },
          ],
        },
      },
    ]);
    status(connection, `Rejected “${title}”: ${count(problems.length, 'problem')}.`);
  };

  const echo = (connection: Connection, state: GalleryState, action: ActionEvent) => {
    const messages: ServerMessage[] = [];
    if (!state.shown.has(GALLERY_ECHO_SURFACE_ID)) {
      state.shown.set(GALLERY_ECHO_SURFACE_ID, v);
      messages.push(
        {
          version: v,
          createSurface: { surfaceId: GALLERY_ECHO_SURFACE_ID, catalogId: BASIC_CATALOG_ID },
        },
        {
          version: v,
          updateComponents: {
            surfaceId: GALLERY_ECHO_SURFACE_ID,
            components: [
              { id: 'root', component: 'Card', child: 'echo-column' },
              {
                id: 'echo-column',
                component: 'Column',
                children: ['echo-heading', 'echo-source', 'echo-context'],
              },
              {
                id: 'echo-heading',
                component: 'Row',
                children: ['echo-icon', 'echo-title'],
                align: 'center',
              },
              { id: 'echo-icon', component: 'Icon', name: 'check' },
              {
                id: 'echo-title',
                component: 'Text',
                variant: 'h2',
                text: {
                  call: 'formatString',
                  args: { value: 'Action “${/last/name}” received' },
                  returnType: 'string',
                },
              },
              {
                id: 'echo-source',
                component: 'Text',
                variant: 'caption',
                text: {
                  call: 'formatString',
                  args: {
                    value:
                      'From ${/last/sourceComponentId} on ${/last/surfaceId} · action ${/count} of this session',
                  },
                  returnType: 'string',
                },
              },
              { id: 'echo-context', component: 'Text', text: { path: '/last/context' } },
            ],
          },
        },
      );
    }
    messages.push({
      version: v,
      updateDataModel: {
        surfaceId: GALLERY_ECHO_SURFACE_ID,
        value: {
          count: state.echoed,
          last: {
            name: action.name,
            surfaceId: action.surfaceId,
            sourceComponentId: action.sourceComponentId,
            context: `\`\`\`json\n${JSON.stringify(action.context, null, 2)}\n\`\`\``,
          },
        },
      },
    });
    connection.send(messages);
  };

  return {
    onConnect(connection) {
      states.set(connection.id, { playback: undefined, shown: new Map(), echoed: 0 });
      connection.send(
        controlsSurface(
          examples,
          defaultDelayMs,
          maxDelayMs,
          versions,
          initialGalleryVersion(connection, versions),
        ),
      );
    },
    onAction(connection, action) {
      const state = states.get(connection.id);
      if (!state) return;
      const delayMs = clampDelay(action.context.delayMs, defaultDelayMs, maxDelayMs);
      if (action.surfaceId === GALLERY_CONTROLS_SURFACE_ID && action.name === 'play') {
        const example = examples.find((entry) => entry.file === action.context.file);
        if (!example) {
          status(connection, `Unknown example ${JSON.stringify(action.context.file)}.`);
          return;
        }
        const version = pickVersion(action.context.version, versions);
        if (version !== v && example.catalog !== 'basic') {
          status(connection, `“${example.name}” uses the minimal catalog, which only v0.9 has.`);
          return;
        }
        const title = version === v ? example.name : `${example.name} (${version})`;
        play(connection, state, title, streamIn(example, version), delayMs, example.description);
        return;
      }
      if (action.name === LOAD_STREAM_ACTION) {
        const text = typeof action.context.text === 'string' ? action.context.text : '';
        const fileName =
          typeof action.context.fileName === 'string' && action.context.fileName !== ''
            ? action.context.fileName
            : undefined;
        const title = fileName ?? 'Pasted stream';
        const bytes = utf8ByteLength(text);
        if (bytes > MAX_PASTED_STREAM_BYTES) {
          showIssues(connection, state, title, [], tooLargeMessage(title, bytes));
          return;
        }
        // Exactly what `a2ui validate` does with the same text: every problem, its wording.
        const name = fileName ?? 'pasted';
        const items = readMessages(text, name);
        const messages = items.filter((item): item is ReadMessage => !isReadFailure(item));
        const problems =
          messages.length === 0 && items.length === 0
            ? [{ code: 'INVALID_JSON', surfaceId: '', message: `${name}: the stream is empty.` }]
            : checkMessages(
                items,
                name,
                new MessageProcessor({ catalogs: createDefaultCatalogs() }),
              );
        if (problems.length > 0) {
          showIssues(connection, state, title, describePastedProblems(text, name, problems));
          return;
        }
        play(
          connection,
          state,
          title,
          messages.map((item) => item.value),
          delayMs,
        );
        return;
      }
      state.echoed++;
      echo(connection, state, action);
    },
    onDisconnect(connection) {
      states.get(connection.id)?.playback?.abort();
      states.delete(connection.id);
    },
  };
}

/** The picked version (the ChoicePicker's one-item list, or a string), else the default. */
function pickVersion(value: unknown, offered: readonly MigrationVersion[]): MigrationVersion {
  const picked = Array.isArray(value) ? value[0] : value;
  return offered.find((version) => version === picked) ?? DEFAULT_GALLERY_VERSION;
}

/** `messages` written in `version` (what `a2ui migrate --to <version>` does). */
function inVersion(messages: readonly unknown[], version: MigrationVersion): ServerMessage[] {
  return migrateMessages(messages, { to: version }).messages as unknown as ServerMessage[];
}

const migrated = new WeakMap<ExampleStream, Map<MigrationVersion, readonly unknown[]>>();

/**
 * An example's stream in `version`, converted once per example and version. The same conversion
 * wrote core's committed fixtures (`fixtures/v0_8/basic`, `fixtures/v1_0/basic`); its losses
 * (v1.0 has no heading variants) are listed in their `migration-report.json`.
 */
function streamIn(example: ExampleStream, version: MigrationVersion): readonly unknown[] {
  if (version === v) return example.messages;
  let byVersion = migrated.get(example);
  if (!byVersion) {
    byVersion = new Map();
    migrated.set(example, byVersion);
  }
  let messages = byVersion.get(version);
  if (!messages) {
    messages = inVersion(example.messages, version);
    byVersion.set(version, messages);
  }
  return messages;
}

/** Message kinds that create a surface: v0.9/v1.0 `createSurface`, v0.8 `beginRendering`. */
const CREATING_KINDS = ['createSurface', 'beginRendering'] as const;

/** The surface `message` creates and the version it is written in, if it creates one. */
function createdSurface(
  message: unknown,
): { surfaceId: string; version: MigrationVersion } | undefined {
  if (!isRecord(message)) return undefined;
  const version = detectMessageVersion(message);
  if (!version) return undefined;
  for (const kind of CREATING_KINDS) {
    const body = message[kind];
    if (isRecord(body) && typeof body.surfaceId === 'string')
      return { surfaceId: body.surfaceId, version };
  }
  return undefined;
}

function clampDelay(value: unknown, fallback: number, max: number): number {
  const number =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) return fallback;
  return Math.min(max, Math.max(0, Math.round(number)));
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? noun : `${noun}s`}`;
}

function controlsSurface(
  examples: readonly ExampleStream[],
  delayMs: number,
  maxDelayMs: number,
  versions: readonly MigrationVersion[],
  initialVersion: MigrationVersion,
): ServerMessage[] {
  const surfaceId = GALLERY_CONTROLS_SURFACE_ID;
  const entry = (example: ExampleStream) => ({
    file: example.file,
    name: example.name,
    description: example.description,
    messageCount: example.messages.length,
  });
  return [
    {
      version: v,
      createSurface: {
        surfaceId,
        catalogId: BASIC_CATALOG_ID,
        theme: { agentDisplayName: 'Example gallery' },
      },
    },
    {
      version: v,
      updateDataModel: {
        surfaceId,
        value: {
          delayMs,
          version: [initialVersion],
          status: 'Pick an example to stream it message by message.',
          basic: examples.filter((example) => example.catalog === 'basic').map(entry),
          minimal: examples.filter((example) => example.catalog === 'minimal').map(entry),
        },
      },
    },
    {
      version: v,
      updateComponents: {
        surfaceId,
        components: [
          { id: 'root', component: 'Card', child: 'controls' },
          {
            id: 'controls',
            component: 'Column',
            children: [
              'controls-title',
              'controls-intro',
              'version-picker',
              'delay-slider',
              'status',
              'catalog-tabs',
            ],
          },
          { id: 'controls-title', component: 'Text', text: 'Example gallery', variant: 'h1' },
          {
            id: 'controls-intro',
            component: 'Text',
            text:
              versions.length > 1
                ? 'The official A2UI v0.9 examples, streamed one message at a time in the protocol version you pick (v0.8 and v1.0 are converted as `a2ui migrate` does; the minimal-catalog ones exist in v0.9 only). Actions from the streamed surfaces are echoed back.'
                : `The official A2UI v0.9 examples, streamed one message at a time. Actions from the streamed surfaces are echoed back. This transport carries ${versions.join(', ')} surfaces only (v0.8 and v1.0 play over SSE, WebSocket, REST and A2A).`,
          },
          {
            id: 'version-picker',
            component: 'ChoicePicker',
            label: 'Protocol version',
            variant: 'mutuallyExclusive',
            options: versions.map((version) => ({ label: version, value: version })),
            value: { path: '/version' },
          },
          {
            id: 'delay-slider',
            component: 'Slider',
            // The unit only: the Slider shows its value beside the track (and tells assistive
            // technology), so a value in the label too was read and seen twice.
            label: 'Delay between messages (ms)',
            value: { path: '/delayMs' },
            min: 0,
            max: maxDelayMs,
          },
          { id: 'status', component: 'Text', text: { path: '/status' }, variant: 'caption' },
          {
            id: 'catalog-tabs',
            component: 'Tabs',
            tabs: [
              { title: 'Basic catalog', child: 'basic-list' },
              { title: 'Minimal catalog', child: 'minimal-list' },
            ],
          },
          {
            id: 'basic-list',
            component: 'List',
            children: { componentId: 'example-item', path: '/basic' },
          },
          {
            id: 'minimal-list',
            component: 'List',
            children: { componentId: 'minimal-item', path: '/minimal' },
          },
          {
            id: 'example-item',
            component: 'Row',
            children: ['example-name', 'example-count', 'example-play'],
            align: 'center',
          },
          {
            id: 'example-name',
            component: 'Text',
            text: { path: 'name' },
            weight: 1,
            accessibility: { description: { path: 'description' } },
          },
          {
            id: 'example-count',
            component: 'Text',
            variant: 'caption',
            text: {
              call: 'pluralize',
              args: {
                value: { path: 'messageCount' },
                one: '1 message',
                other: {
                  call: 'formatString',
                  args: { value: '${messageCount} messages' },
                  returnType: 'string',
                },
              },
              returnType: 'string',
            },
          },
          playButton('example-play'),
          {
            id: 'minimal-item',
            component: 'Row',
            children: ['example-name', 'example-count', 'minimal-play'],
            align: 'center',
          },
          // Disabled, with its reason beneath it, while the picker holds another version.
          playButton('minimal-play', [
            {
              condition: {
                call: 'regex',
                args: { value: { path: '/version/0' }, pattern: `^${v.replaceAll('.', '\\.')}$` },
                returnType: 'boolean',
              },
              message: MINIMAL_CATALOG_VERSION_NOTE,
            },
          ]),
          { id: 'example-play-label', component: 'Text', text: 'Play' },
        ],
      },
    },
  ];
}

/** The Play button of one listed example, with `checks` that disable it while they fail. */
function playButton(id: string, checks?: readonly unknown[]): ComponentInstance {
  return {
    id,
    component: 'Button',
    child: 'example-play-label',
    accessibility: {
      label: {
        call: 'formatString',
        args: { value: 'Play ${name}' },
        returnType: 'string',
      },
    },
    action: {
      event: {
        name: 'play',
        context: {
          file: { path: 'file' },
          delayMs: { path: '/delayMs' },
          version: { path: '/version' },
        },
      },
    },
    ...(checks ? { checks } : {}),
  };
}
