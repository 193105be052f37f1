/**
 * What the negotiated version means for one run (docs/wire-formats.md, AG-UI "Versions" and
 * "Function calls"): the client messages a run may carry, the shape of the operations it
 * writes, and how the agent's v1.0 function calls travel — as AG-UI frontend tools.
 */
import {
  A2uiError,
  getFunctionCallKind,
  isRecord,
  MessageMigrator,
  migrateMessages,
  type ServerMessage,
} from '@a2ui-ts/core';
import { checkInboundMessage } from '@a2ui-ts/core/host';
import { type BaseEvent, EventType } from '@ag-ui/core';
import { CUSTOM_EVENTS, FORWARDED_PROPS } from '../protocol/constants.js';
import type { RunRequest } from './run-input.js';

/** The version that carries function calls, and whose operations a v1.0 run writes. */
const V1_0 = 'v1.0';

/**
 * Refuses, before the stream starts, what the run's negotiated version cannot carry: a v1.0
 * client message or a function call on a run that did not negotiate v1.0 (`NOT_SUPPORTED`,
 * HTTP 400, as on REST), and a malformed function call or v1.0 message (`VALIDATION_FAILED`,
 * pointing into `forwardedProps`). v0.9 messages are checked by the caller, as before.
 *
 * @throws A2uiError `NOT_SUPPORTED` (`data.httpStatus` 400) or `VALIDATION_FAILED`
 */
export function checkRunVersion(request: RunRequest, negotiated: string | undefined): void {
  const message = request.clientMessage;
  const v10Message = message !== undefined && message.version !== 'v0.9';
  if ((v10Message || request.functionCalls.length > 0) && negotiated !== V1_0) {
    const what = v10Message ? `a ${message!.version} ${message!.kind}` : 'a v1.0 function call';
    throw new A2uiError(
      'NOT_SUPPORTED',
      `The run carries ${what}; it ${negotiated ? `negotiated ${negotiated}` : 'negotiated no version (offer "v1.0" in forwardedProps.a2uiVersions)'}, so v1.0 messages are not available on it.`,
      { data: { httpStatus: 400 } },
    );
  }
  if (v10Message) {
    const [issue] = checkInboundMessage({
      version: message!.version,
      [message!.kind]: message!.body,
    });
    if (issue)
      throw new A2uiError('VALIDATION_FAILED', issue.message, {
        path: `${request.clientMessagePath}${issue.path.replace(/^\/(action|error)/, '')}`,
      });
  }
  const functionCall = request.input.forwardedProps?.[FORWARDED_PROPS.functionCall];
  if (functionCall !== undefined) {
    const [issue] = checkInboundMessage(functionCall);
    if (issue)
      throw new A2uiError('VALIDATION_FAILED', issue.message, {
        path: `/forwardedProps/${FORWARDED_PROPS.functionCall}${issue.path}`,
      });
  }
}

/** The whole client message a run hands to the session host (its envelope version kept). */
export function clientMessageOf(message: NonNullable<RunRequest['clientMessage']>): {
  version: string;
  [kind: string]: unknown;
} {
  return { version: message.version, [message.kind]: message.body };
}

/**
 * Writes the (v0.9) operations the emitters build for a surface in the version the agent created
 * it in: v1.0's for a surface of a v1.0 `createSurface` (core's migration), as they are
 * otherwise — so the operations travel in the agent's version, as every binding carries messages.
 */
export function operationsWriter(
  v10Surfaces: ReadonlySet<string>,
): (surfaceId: string, operations: readonly unknown[]) => unknown[] {
  return (surfaceId, operations) =>
    v10Surfaces.has(surfaceId)
      ? migrateMessages(operations, { to: 'v1.0' }).messages
      : [...operations];
}

/**
 * Notes the surfaces the agent creates in v1.0 (`v10Surfaces`), after the message was emitted:
 * a v1.0 `createSurface` adds its surface, any `deleteSurface` removes it.
 */
export function noteSurfaceVersion(v10Surfaces: Set<string>, message: unknown): void {
  if (!isRecord(message)) return;
  const create = message.createSurface;
  const remove = message.deleteSurface;
  if (isRecord(create) && typeof create.surfaceId === 'string') {
    if (message.version === V1_0) v10Surfaces.add(create.surfaceId);
    else v10Surfaces.delete(create.surfaceId);
  } else if (isRecord(remove) && typeof remove.surfaceId === 'string') {
    v10Surfaces.delete(remove.surfaceId);
  }
}

/**
 * The adapter keeps its surfaces as v0.9 (the shape of `state.surfaces` and of the emitters'
 * bookkeeping): an agent that writes v1.0 (e.g. through `withNegotiatedVersions`) is read
 * through the thread's migrator, which keeps what a v1.0 stream needs across messages. Returns
 * the v0.9 messages with their JSON: one for a v0.9 message, as many as the conversion makes
 * of a v1.0 one (a `createSurface` with components is two).
 */
export function asV09(
  migrator: MessageMigrator,
  message: ServerMessage,
  data: string,
): Array<{ message: ServerMessage; data: string }> {
  const version = (message as { version?: unknown }).version;
  if (version === 'v0.9') return [{ message, data }];
  return migrator.migrate([message]).messages.map((converted) => ({
    message: converted as unknown as ServerMessage,
    data: JSON.stringify(converted),
  }));
}

/** A migrator for the agent's v1.0 messages of one thread. */
export function createV09Reader(): MessageMigrator {
  return new MessageMigrator({ to: 'v0.9' });
}

/**
 * The events of an agent's v1.0 function-call message: a `CUSTOM` `a2ui.functionCall` with the
 * message whole (what `connectAgUi` reads), and for a `callRendererFunction` the frontend-tool
 * call a stock AG-UI client runs (`toolCallId` = `functionCallId`, `toolCallName` = the
 * function, the arguments as its `TOOL_CALL_ARGS`). Returns the id of that call, if any.
 */
export function functionCallEvents(
  message: unknown,
  emit: (event: BaseEvent) => void,
): string | undefined {
  const kind = getFunctionCallKind(message);
  if (kind === undefined || !isRecord(message)) return undefined;
  emit({ type: EventType.CUSTOM, name: CUSTOM_EVENTS.functionCall, value: message } as BaseEvent);
  if (kind !== 'callRendererFunction') return undefined;
  const body = message.callRendererFunction as {
    functionCallId: string;
    callFunction: { call: string; args?: Record<string, unknown> };
  };
  const toolCallId = body.functionCallId;
  emit({
    type: EventType.TOOL_CALL_START,
    toolCallId,
    toolCallName: body.callFunction.call,
  } as BaseEvent);
  emit({
    type: EventType.TOOL_CALL_ARGS,
    toolCallId,
    delta: JSON.stringify(body.callFunction.args ?? {}),
  } as BaseEvent);
  emit({ type: EventType.TOOL_CALL_END, toolCallId } as BaseEvent);
  return toolCallId;
}
