/**
 * How what happens on the client is told to the model (user turns), and how a failed model call
 * is told to the user.
 */
import type { ActionEvent, ClientError } from '@a2ui-ts/core';
import { APICallError, RetryError } from 'ai';
import { RENDER_TOOL_NAME } from '../catalog/render-tool-schema.js';

const MAX_ERROR_CHARS = 300;

/**
 * A user turn for an action on one of the model's surfaces (spec §3.1): its name, source
 * component and resolved context, plus the surface's data model when the client sent it
 * (`sendDataModel`, §4.2).
 */
export function describeAction(action: ActionEvent, dataModel: unknown): string {
  const event: Record<string, unknown> = {
    name: action.name,
    surfaceId: action.surfaceId,
    sourceComponentId: action.sourceComponentId,
    context: action.context,
  };
  if (dataModel !== undefined) event.dataModel = dataModel;
  return `The user triggered an action on your surface "${action.surfaceId}". Answer it by updating the UI.\n${JSON.stringify({ a2uiAction: event })}`;
}

/** A user turn for an error the client reported about one of the model's surfaces (spec §3.2). */
export function describeClientError(error: ClientError): string {
  return `The client reported an error while applying or rendering your surface "${error.surfaceId}". Fix it with ${RENDER_TOOL_NAME}: send the corrected messages or components.\n${JSON.stringify({ a2uiError: error })}`;
}

/** A one-line reason for a failed model call, safe to show a user. */
export function describeModelError(error: unknown): string {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  let text: string;
  if (APICallError.isInstance(cause)) {
    if (cause.statusCode !== undefined && cause.statusCode >= 300)
      text = `the provider answered HTTP ${cause.statusCode}: ${cause.message}`;
    else {
      // A 200 whose body broke off or could not be read: say what broke, not "HTTP 200".
      const inner = cause.cause instanceof Error ? cause.cause.message : undefined;
      text = `the provider's response broke off${inner ? ` (${inner})` : ''}`;
    }
  } else text = cause instanceof Error ? cause.message : String(cause);
  if (RetryError.isInstance(error)) text = `${text} (after ${error.errors.length} attempts)`;
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_ERROR_CHARS ? flat : `${flat.slice(0, MAX_ERROR_CHARS - 1)}…`;
}
