/**
 * Reads a message stream a user pasted or uploaded: a JSON array, one message, the list wrapper
 * `{messages: [...]}`, a sample file `{name, description, messages}`, or JSONL (one message per
 * line) — and validates every message before anything is streamed.
 */
import {
  createDefaultCatalogs,
  getServerMessageKind,
  getSurfaceId,
  isRecord,
  MessageProcessor,
  parseJsonLines,
  toMessageList,
  validateServerMessage,
} from '@a2ui-ts/core';

/** Where a problem is in the stream and what it is. */
export interface StreamIssue {
  /** Index of the message in the stream, when the problem belongs to one message. */
  index?: number;
  /** 1-based line of JSONL input. */
  line?: number;
  /** JSON Pointer into the message (or `""`). */
  path: string;
  message: string;
}

/** Outcome of {@link parseStreamText}. */
export type ParseStreamResult =
  | { success: true; messages: unknown[]; format: 'json' | 'jsonl' }
  | { success: false; issues: StreamIssue[] };

/** Largest accepted stream text, in characters. */
export const MAX_STREAM_TEXT_LENGTH = 1_000_000;

/**
 * Splits `text` into messages without judging them (see {@link validateStream}). Every JSONL line
 * that is not JSON gets its own issue, so a user sees all of them at once.
 */
export function parseStreamText(text: string): ParseStreamResult {
  if (text.length > MAX_STREAM_TEXT_LENGTH) {
    return {
      success: false,
      issues: [
        { path: '', message: `The stream is longer than ${MAX_STREAM_TEXT_LENGTH} characters.` },
      ],
    };
  }
  const trimmed = text.trim();
  if (trimmed === '')
    return { success: false, issues: [{ path: '', message: 'The stream is empty.' }] };
  let wholeError: string;
  try {
    return { success: true, messages: toMessageList(JSON.parse(trimmed)), format: 'json' };
  } catch (error) {
    wholeError = (error as Error).message;
  }
  const lines = parseJsonLines(trimmed);
  if (lines.length <= 1) {
    return {
      success: false,
      issues: [{ path: '', message: `The stream is not valid JSON: ${wholeError}` }],
    };
  }
  const messages: unknown[] = [];
  const issues: StreamIssue[] = [];
  for (const entry of lines) {
    if (entry.error)
      issues.push({ line: entry.line, path: entry.error.path, message: entry.error.message });
    else messages.push(entry.value);
  }
  return issues.length > 0
    ? { success: false, issues }
    : { success: true, messages, format: 'jsonl' };
}

/**
 * Every problem of a message stream, in order: schema issues of each message against the catalog
 * of the surface it targets (all of them, not only the first), then what applying the stream
 * would reject (a duplicate `createSurface`, an unknown surface or catalog), found by a dry run
 * through a throwaway {@link MessageProcessor}.
 */
export function validateStream(messages: readonly unknown[]): StreamIssue[] {
  const issues: StreamIssue[] = [];
  const surfaceCatalogs = new Map<string, string>();
  const dryRun = new MessageProcessor({ catalogs: createDefaultCatalogs() });
  messages.forEach((message, index) => {
    const kind = getServerMessageKind(message);
    const surfaceId = getSurfaceId(message);
    const body = kind && isRecord(message) ? message[kind] : undefined;
    const catalogId =
      kind === 'createSurface' && isRecord(body) && typeof body.catalogId === 'string'
        ? body.catalogId
        : surfaceId !== undefined
          ? surfaceCatalogs.get(surfaceId)
          : undefined;
    // A createSurface names its own catalog (an unknown one is reported by the dry run below).
    const targetCatalog = kind === 'createSurface' ? undefined : catalogId;
    const schemaIssues = validateServerMessage(
      message,
      targetCatalog ? { catalogId: targetCatalog } : {},
    );
    if (schemaIssues.length > 0) {
      for (const issue of schemaIssues)
        issues.push({ index, path: issue.path, message: issue.message });
      return;
    }
    const { errors } = dryRun.process(message);
    for (const error of errors) {
      issues.push({
        index,
        path: typeof error.path === 'string' ? error.path : '',
        message: error.message,
      });
    }
    if (errors.length === 0 && surfaceId !== undefined) {
      if (kind === 'createSurface' && catalogId) surfaceCatalogs.set(surfaceId, catalogId);
      if (kind === 'deleteSurface') surfaceCatalogs.delete(surfaceId);
    }
  });
  return issues;
}
