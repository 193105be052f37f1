/**
 * Names on the AG-UI wire that this adapter reads or writes (ARCHITECTURE §4 "AG-UI", digest
 * `ag-ui.md` §5). The activity type and the operations key are those of `@ag-ui/a2ui-middleware`
 * and CopilotKit's A2UI renderer, so their renderers draw what we emit.
 */

/** `activityType` of an A2UI surface's activity message (`A2UIActivityType` of the middleware). */
export const A2UI_ACTIVITY_TYPE = 'a2ui-surface';

/** Key of the v0.9 messages in activity content and tool results (`A2UI_OPERATIONS_KEY`). */
export const A2UI_OPERATIONS_KEY = 'a2ui_operations';

/** The `messageId` of surface `surfaceId`'s activity message: stable, so updates replace it in place. */
export const activityMessageId = (surfaceId: string): string => `a2ui-surface-${surfaceId}`;

/** The key of `RunAgentInput.state` that holds the surfaces in `state` mode. */
export const STATE_SURFACES_KEY = 'surfaces';

/**
 * The key of `RunAgentInput.state` (and of each A2UI activity message's content) that holds the
 * `seq` of the last thread message the client applied. The server writes it with every update,
 * in the same event where it can (`STATE_DELTA` in `state` mode, `ACTIVITY_DELTA` in `activity`
 * mode); the client sends it back with its state on every run, so a run that was cut is caught up
 * with exactly the messages the client lacks. Clients never need to read it.
 */
export const STATE_SEQ_KEY = 'a2uiSeq';

/**
 * Keys of `RunAgentInput.forwardedProps` that this adapter reads. Every other key reaches the
 * agent untouched as `AgentInput.extras`.
 */
export const FORWARDED_PROPS = {
  /**
   * A user action: the v0.9 client message `{version, action}`, `{action}`, the older
   * `{userAction}` spelling of CopilotKit and assistant-ui, or a bare action object.
   */
  action: 'a2uiAction',
  /** A v0.9 client `error` message (`{version, error}` or the bare error object). */
  error: 'a2uiError',
  /** The client's `a2uiClientCapabilities` (spec §4.1). */
  capabilities: 'a2uiClientCapabilities',
  /** The client's `a2uiClientDataModel` (spec §4.2). */
  dataModel: 'a2uiClientDataModel',
  /**
   * `true` when the client holds none of the thread's surfaces (a new page on an old thread): the
   * run re-sends every surface whole.
   */
  resync: 'a2uiResync',
  /** `true` to end the thread: the agent sees `onDisconnect('client-closed')`. */
  disconnect: 'a2uiDisconnect',
  /**
   * `true` on a run without input: it stays open after its turns (up to the server's
   * `maxRunWaitMs`), streaming what the agent sends meanwhile, until the thread's next request.
   */
  wait: 'a2uiWait',
  /**
   * `true`: not a run, only "I need the thread": ends the thread's waiting run (its
   * `RUN_FINISHED` follows) and is answered `204` at once.
   */
  release: 'a2uiRelease',
  /**
   * The A2UI versions the client reads, an array of version tokens (`["v1.0", "v0.9"]`). The
   * server answers with the one it speaks in state ({@link STATE_VERSION_KEY}); without it the run
   * is served as before negotiation.
   */
  versions: 'a2uiVersions',
  /**
   * A v1.0 function-call message of the client, whole: `{"version": "v1.0", "callAgentFunction":
   * {…}}` or `{"version": "v1.0", "rendererFunctionResponse": {…}}` (what `connectAgUi` sends). A
   * stock AG-UI client answers a renderer function as a frontend tool instead: a `tool` message.
   */
  functionCall: 'a2uiFunctionCall',
} as const;

/** The key of the state in which the server answers the negotiated A2UI version (`"v0.9"`). */
export const STATE_VERSION_KEY = 'a2uiVersion';

/**
 * The A2UI versions this adapter carries: on a v1.0 run the activity and tool-result operations
 * are v1.0 messages and function calls travel; otherwise they are v0.9's. (v0.9.1 and v0.8 are not
 * carried: a client offering only those is refused.)
 */
export const AGUI_CARRIED_VERSIONS: readonly string[] = ['v1.0', 'v0.9'];

/** `CUSTOM` events this adapter emits; every AG-UI client may ignore them. */
export const CUSTOM_EVENTS = {
  /** The thread ended (`value: {reason}`): the agent or the server closed it. */
  closed: 'a2ui.closed',
  /**
   * The thread the request named is gone (`value: {reason}`) and a new one took its place: every
   * surface the client holds is stale, and an action it sent was not delivered.
   */
  reset: 'a2ui.reset',
  /**
   * A v1.0 function-call message of the agent, whole (`value`: `{"version": "v1.0",
   * "callRendererFunction" | "agentFunctionResponse": {…}}`). A `callRendererFunction` is also
   * the frontend-tool call that follows it (`toolCallId` = its `functionCallId`), which ends the run.
   */
  functionCall: 'a2ui.functionCall',
} as const;

/** The middleware's synthetic tool whose call mirrors a user action (de-duplicated against `a2uiAction`). */
export const LOG_A2UI_EVENT_TOOL = 'log_a2ui_event';

/** Name of the backend tool whose results carry surfaces in `tool-result` mode. */
export const SURFACE_TOOL_NAME = 'a2ui_surface';

/** Content type of the length-prefixed protobuf encoding (exactly, never with parameters). */
export const PROTOBUF_MEDIA_TYPE = 'application/vnd.ag-ui.event+proto';
