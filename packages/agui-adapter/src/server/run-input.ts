/**
 * The codec of a run's request: `RunAgentInput` (validated with `@ag-ui/core`'s schema, leniently
 * as digest `ag-ui.md` §2 advises) and what it means for A2UI — the client message in
 * `forwardedProps.a2uiAction` / `a2uiError` (or the middleware's `log_a2ui_event` pair), new user
 * text, results of host tool calls, host tools, context, the host's other state and the client
 * metadata.
 */
import {
  A2uiError,
  type ClientMessageMetadata,
  describeEchoedValue,
  encodeSegment,
  FUNCTION_CALL_VERSION,
  getFunctionCallKind,
  type HostContextEntry,
  type HostTool,
  type HostToolResult,
  isRecord,
  MAX_OFFERED_VERSIONS,
  setOwn,
} from '@a2ui-ts/core';
import type { Message, RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import {
  AGUI_CARRIED_VERSIONS,
  FORWARDED_PROPS,
  LOG_A2UI_EVENT_TOOL,
  STATE_SEQ_KEY,
  STATE_SURFACES_KEY,
  STATE_VERSION_KEY,
} from '../protocol/constants.js';

/** What one run asks of the agent, in the order it is delivered. */
export interface RunRequest {
  readonly input: RunAgentInput;
  /** Results of host tool calls this thread is waiting for, by their `tool` messages. */
  readonly toolResults: HostToolResult[];
  /** Text of the user messages after the last non-user message that were not delivered before. */
  readonly text: string | undefined;
  /** Ids of those user messages. */
  readonly userMessageIds: string[];
  /**
   * The client message (`{version, action}` or `{version, error}`), when the run carries one;
   * `version` is the envelope's (`v0.9` when it names none).
   */
  readonly clientMessage: { kind: 'action' | 'error'; body: unknown; version: string } | undefined;
  /**
   * The v1.0 function-call messages the run carries, in order: answers to renderer functions
   * (`tool` messages for calls the thread waits for, and `forwardedProps.a2uiFunctionCall`), then a
   * `callAgentFunction`.
   */
  readonly functionCalls: Record<string, unknown>[];
  /** Where the client message came from, for error paths. */
  readonly clientMessagePath: string | undefined;
  /** The id of the `log_a2ui_event` call the action came from, when it came from one. */
  readonly logEventCallId: string | undefined;
  readonly metadata: ClientMessageMetadata | undefined;
  readonly tools: HostTool[];
  readonly context: HostContextEntry[];
  /**
   * `state.a2uiSeq`: the `seq` of the last thread message the client applied, when its state
   * carries one (a non-negative integer).
   */
  readonly clientSeq: number | undefined;
  /** `RunAgentInput.state` without `surfaces` and `a2uiSeq`, when there is anything else. */
  readonly hostState: Record<string, unknown> | undefined;
  /** `forwardedProps` without this adapter's keys. */
  readonly extras: Record<string, unknown> | undefined;
  readonly resync: boolean;
  readonly disconnect: boolean;
  /**
   * The run asked to wait (`forwardedProps.a2uiWait`) and carries nothing for the agent: it stays
   * open after its turns.
   */
  readonly wait: boolean;
  /** `forwardedProps.a2uiVersions`, when the client offered versions. */
  readonly offeredVersions: readonly string[] | undefined;
}

/** What the thread remembers to read a run: which ids it delivered or waits for. */
export interface ThreadMemory {
  readonly pendingToolCalls: ReadonlySet<string>;
  /** `functionCallId`s of renderer functions sent as frontend-tool calls, not answered yet. */
  readonly pendingFunctionCalls: ReadonlySet<string>;
  hasSeenMessage(id: string): boolean;
}

/**
 * Validates a parsed request body as `RunAgentInput`: absent `messages`, `tools`, `context`,
 * `forwardedProps` and `state`, `state: null`, unknown keys and any message role are accepted.
 *
 * @throws A2uiError `VALIDATION_FAILED` with `path` (JSON Pointer into the body) and `data.issues`
 */
export function parseRunAgentInput(body: unknown): RunAgentInput {
  const lenient = isRecord(body) && body.messages === undefined ? { ...body, messages: [] } : body;
  const parsed = RunAgentInputSchema.safeParse(lenient);
  if (parsed.success) return parsed.data as RunAgentInput;
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.map((segment) => `/${encodeSegment(String(segment))}`).join(''),
    keyword: issue.code,
    message: issue.message,
  }));
  const first = issues[0]!;
  throw new A2uiError(
    'VALIDATION_FAILED',
    `Not a RunAgentInput: ${first.message} at "${first.path}".`,
    {
      path: first.path,
      data: { issues },
    },
  );
}

/**
 * Reads what a run carries for the agent.
 *
 * @param input - the validated `RunAgentInput`
 * @param memory - the thread's pending host tool calls and delivered message ids
 */
export function readRunRequest(input: RunAgentInput, memory: ThreadMemory): RunRequest {
  const props = isRecord(input.forwardedProps) ? input.forwardedProps : {};
  const messages = input.messages;
  const toolResults: HostToolResult[] = [];
  const functionCalls = readFunctionCalls(input, memory);
  for (const message of messages) {
    if (message.role !== 'tool' || !memory.pendingToolCalls.has(message.toolCallId)) continue;
    const result: { toolCallId: string; content: string; error?: string } = {
      toolCallId: message.toolCallId,
      content: contentText(message.content),
    };
    if (typeof message.error === 'string') result.error = message.error;
    toolResults.push(result);
  }
  const { texts, ids } = trailingUserText(messages, memory);
  let clientMessage: RunRequest['clientMessage'];
  let clientMessagePath: string | undefined;
  let logEventCallId: string | undefined;
  if (props[FORWARDED_PROPS.action] !== undefined) {
    clientMessagePath = `/forwardedProps/${FORWARDED_PROPS.action}`;
    const raw = props[FORWARDED_PROPS.action];
    clientMessage = {
      kind: 'action',
      body: toAction(raw),
      version: checkEnvelopeVersion(raw, clientMessagePath),
    };
  } else if (props[FORWARDED_PROPS.error] !== undefined) {
    const raw = props[FORWARDED_PROPS.error];
    clientMessagePath = `/forwardedProps/${FORWARDED_PROPS.error}`;
    clientMessage = {
      kind: 'error',
      body: isRecord(raw) && isRecord(raw.error) ? raw.error : raw,
      version: checkEnvelopeVersion(raw, clientMessagePath),
    };
  } else {
    // Without `a2uiAction`, the middleware's synthetic call is the action (never both: it mirrors it).
    const logged = trailingLogEvent(messages, memory);
    if (logged) {
      clientMessage = {
        kind: 'action',
        body: toAction({ userAction: logged.userAction }),
        version: 'v0.9',
      };
      clientMessagePath = '/messages';
      logEventCallId = logged.callId;
    }
  }
  const state = isRecord(input.state) ? input.state : undefined;
  const hostState = state
    ? withoutKeys(state, [STATE_SURFACES_KEY, STATE_SEQ_KEY, STATE_VERSION_KEY])
    : undefined;
  const seq = state?.[STATE_SEQ_KEY];
  const extras = withoutKeys(props, Object.values(FORWARDED_PROPS));
  return {
    input,
    offeredVersions: readOfferedVersionsProp(props[FORWARDED_PROPS.versions]),
    toolResults,
    functionCalls,
    text: texts.length > 0 ? texts.join('\n\n') : undefined,
    userMessageIds: ids,
    clientMessage,
    clientMessagePath,
    logEventCallId,
    metadata: readMetadata(props, state),
    tools: (input.tools ?? []).map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      parameters: isRecord(tool.parameters) ? tool.parameters : {},
    })),
    context: (input.context ?? []).map((entry) => ({
      description: entry.description,
      value: entry.value,
    })),
    clientSeq: Number.isSafeInteger(seq) && (seq as number) >= 0 ? (seq as number) : undefined,
    hostState,
    extras,
    resync: props[FORWARDED_PROPS.resync] === true,
    disconnect: props[FORWARDED_PROPS.disconnect] === true,
    wait:
      props[FORWARDED_PROPS.wait] === true &&
      clientMessage === undefined &&
      toolResults.length === 0 &&
      functionCalls.length === 0 &&
      texts.length === 0,
  };
}

/**
 * The version of a client message envelope (`{version, action|error}`), refused when this adapter
 * does not carry it (a v0.9.1 or v0.8 envelope would be read as something it is not). A message
 * without `version` (the bare action, CopilotKit's `userAction`) is v0.9. Whether the thread
 * negotiated a v1.0 envelope is checked when the run starts.
 * @throws A2uiError `VALIDATION_FAILED` at `<path>/version`
 */
function checkEnvelopeVersion(raw: unknown, path: string): string {
  if (!isRecord(raw) || raw.version === undefined) return 'v0.9';
  if (typeof raw.version === 'string' && AGUI_CARRIED_VERSIONS.includes(raw.version))
    return raw.version;
  throw new A2uiError(
    'VALIDATION_FAILED',
    `This thread speaks A2UI ${AGUI_CARRIED_VERSIONS.join(', ')}; the client message is ${describeEchoedValue(raw.version)}.`,
    { path: `${path}/version` },
  );
}

/**
 * A v0.9 `action` object from any spelling clients use: `{version, action}`, `{action}`,
 * `{userAction}` (CopilotKit, assistant-ui: `context` optional, `dataContextPath` dropped), or the
 * bare action.
 */
export function toAction(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  if (isRecord(raw.action)) return raw.action;
  if (isRecord(raw.userAction)) {
    const { name, surfaceId, sourceComponentId, timestamp, context } = raw.userAction;
    return {
      name,
      surfaceId,
      sourceComponentId,
      timestamp: timestamp ?? new Date().toISOString(),
      context: context ?? {},
    };
  }
  return raw;
}

/**
 * The function-call messages of a run: each `tool` message answering a renderer function the
 * thread sent as a frontend-tool call (its `content` is the value: JSON text, or the text itself
 * when it is not JSON; its `error` an `EXECUTION_ERROR`), then `forwardedProps.a2uiFunctionCall`
 * (a whole v1.0 message, checked by the session host like any other).
 */
function readFunctionCalls(input: RunAgentInput, memory: ThreadMemory): Record<string, unknown>[] {
  const calls: Record<string, unknown>[] = [];
  for (const message of input.messages) {
    if (message.role !== 'tool' || !memory.pendingFunctionCalls.has(message.toolCallId)) continue;
    const functionCallId = message.toolCallId;
    const response =
      typeof message.error === 'string'
        ? { functionCallId, error: { code: 'EXECUTION_ERROR', message: message.error } }
        : { functionCallId, value: parseToolContent(contentText(message.content)) };
    calls.push({ version: FUNCTION_CALL_VERSION, rendererFunctionResponse: response });
  }
  const props = isRecord(input.forwardedProps) ? input.forwardedProps : {};
  const raw = props[FORWARDED_PROPS.functionCall];
  if (raw === undefined) return calls;
  const kind = getFunctionCallKind(raw);
  if (!isRecord(raw) || (kind !== 'callAgentFunction' && kind !== 'rendererFunctionResponse'))
    throw new A2uiError(
      'VALIDATION_FAILED',
      `${FORWARDED_PROPS.functionCall} is a v1.0 callAgentFunction or rendererFunctionResponse message.`,
      { path: `/forwardedProps/${FORWARDED_PROPS.functionCall}` },
    );
  calls.push(raw);
  return calls;
}

/** A frontend tool's result as a function's value: its JSON, or the text as it is. */
function parseToolContent(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function readMetadata(
  props: Record<string, unknown>,
  state: Record<string, unknown> | undefined,
): ClientMessageMetadata | undefined {
  const metadata: Record<string, unknown> = {};
  const capabilities = props[FORWARDED_PROPS.capabilities];
  if (capabilities !== undefined) metadata.a2uiClientCapabilities = capabilities;
  const dataModel = props[FORWARDED_PROPS.dataModel];
  if (dataModel !== undefined) metadata.a2uiClientDataModel = dataModel;
  else {
    // A stock frontend edits the data models in state: those of `sendDataModel` surfaces count.
    const surfaces = state?.[STATE_SURFACES_KEY];
    if (isRecord(surfaces)) {
      let models: Record<string, unknown> | undefined;
      for (const [id, surface] of Object.entries(surfaces)) {
        if (!isRecord(surface) || surface.sendDataModel !== true) continue;
        models ??= {};
        setOwn(models, id, surface.dataModel);
      }
      if (models) metadata.a2uiClientDataModel = { version: 'v0.9', surfaces: models };
    }
  }
  return Object.keys(metadata).length > 0 ? (metadata as ClientMessageMetadata) : undefined;
}

function trailingUserText(
  messages: readonly Message[],
  memory: ThreadMemory,
): { texts: string[]; ids: string[] } {
  const texts: string[] = [];
  const ids: string[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') break;
    if (memory.hasSeenMessage(message.id)) break;
    const text = contentText(message.content);
    ids.unshift(message.id);
    if (text.length > 0) texts.unshift(text);
  }
  return { texts, ids };
}

function trailingLogEvent(
  messages: readonly Message[],
  memory: ThreadMemory,
): { callId: string; userAction: unknown } | undefined {
  const last = messages.at(-1);
  const call = messages.at(-2);
  if (last?.role !== 'tool' || call?.role !== 'assistant') return undefined;
  const logged = call.toolCalls?.find(
    (toolCall) => toolCall.function.name === LOG_A2UI_EVENT_TOOL && toolCall.id === last.toolCallId,
  );
  if (!logged || memory.hasSeenMessage(logged.id)) return undefined;
  try {
    return { callId: logged.id, userAction: JSON.parse(logged.function.arguments) };
  } catch {
    return undefined;
  }
}

/** The text of a message's content: a string, or the text parts of a content array. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(
      (part): part is { type: 'text'; text: string } =>
        isRecord(part) && part.type === 'text' && typeof part.text === 'string',
    )
    .map((part) => part.text)
    .join('');
}

function withoutKeys(
  record: Record<string, unknown>,
  keys: readonly string[],
): Record<string, unknown> | undefined {
  let rest: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(record)) {
    if (keys.includes(key)) continue;
    rest ??= {};
    setOwn(rest, key, value);
  }
  return rest;
}

/**
 * `forwardedProps.a2uiVersions`: an array of 1 to 32 strings (each token is parsed strictly by the
 * negotiation), or `undefined` when absent.
 * @throws A2uiError `VALIDATION_FAILED` at `/forwardedProps/a2uiVersions` for anything else
 */
function readOfferedVersionsProp(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.length > MAX_OFFERED_VERSIONS ||
    !value.every((entry) => typeof entry === 'string')
  )
    throw new A2uiError(
      'VALIDATION_FAILED',
      `${FORWARDED_PROPS.versions} is an array of 1 to ${MAX_OFFERED_VERSIONS} A2UI versions (e.g. ["v0.9"]).`,
      { path: `/forwardedProps/${FORWARDED_PROPS.versions}` },
    );
  return value as string[];
}
