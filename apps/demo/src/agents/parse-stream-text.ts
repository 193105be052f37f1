/**
 * Validates a message stream (an LLM's tool call) before anything is streamed. (The gallery's
 * pasted streams go through `@a2ui-ts/cli`'s `readMessages` + `checkMessages`, the code path of
 * `a2ui validate`.)
 */
import {
  createDefaultCatalogs,
  getServerMessageKind,
  getSurfaceId,
  isRecord,
  MessageProcessor,
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
