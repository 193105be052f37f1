/**
 * The streaming parser at the edges: over an `AsyncIterable` of text chunks (an LLM SDK's
 * stream) and as a Web `TransformStream` (for `ReadableStream.pipeThrough`).
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { type A2uiStreamParserOptions, createA2uiStreamParser } from './a2ui-stream-parser.js';
import type { A2uiStreamPart } from './stream-types.js';

/** Options of {@link parseA2uiStream}. */
export interface ParseA2uiStreamOptions extends A2uiStreamParserOptions {
  /** Stops reading: the iteration throws `ABORTED` and the source's iterator is closed. */
  signal?: AbortSignal;
}

function abortedError(): A2uiError {
  return new A2uiError('ABORTED', 'Stopped parsing: the signal was aborted.');
}

/** The next chunk, or the abort, whichever comes first. */
function nextOrAbort(
  iterator: AsyncIterator<string>,
  signal: AbortSignal | undefined,
): Promise<IteratorResult<string>> {
  if (signal === undefined) return iterator.next();
  if (signal.aborted) return Promise.reject(abortedError());
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    iterator.next().then(
      (result) => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Parses model output as it streams: yields each {@link A2uiStreamPart} as soon as it is ready
 * (see {@link createA2uiStreamParser} for when that is), then what the end of the stream
 * releases.
 *
 * @param chunks - Text chunks in order, e.g. the text deltas of an LLM response.
 * @param options - Parser options and an optional `signal`.
 * @throws A2uiError `ABORTED` when `signal` fires; the parser's errors (`INVALID_JSON`,
 *   `VALIDATION_FAILED`, and `MESSAGE_TOO_LARGE` for a block past `maxBlockBytes`, which ends
 *   the iteration here too: to read on past an oversized block, call
 *   {@link createA2uiStreamParser}'s `push` yourself); whatever `chunks` throws.
 * @example
 * ```ts
 * for await (const part of parseA2uiStream(textDeltas, { signal })) {
 *   if (part.type === 'text') appendToChat(part.text);
 *   else for (const message of part.messages) connection.send(message);
 * }
 * ```
 */
export async function* parseA2uiStream(
  chunks: AsyncIterable<string>,
  options: ParseA2uiStreamOptions = {},
): AsyncGenerator<A2uiStreamPart, void, undefined> {
  const { signal, ...parserOptions } = options;
  const parser = createA2uiStreamParser(parserOptions);
  const iterator = chunks[Symbol.asyncIterator]();
  let done = false;
  try {
    for (;;) {
      const result = await nextOrAbort(iterator, signal);
      if (result.done) break;
      yield* parser.push(result.value);
      if (signal?.aborted) throw abortedError();
    }
    done = true;
    yield* parser.end();
  } finally {
    // Stop the source when the consumer stops early, fails or aborts. Not awaited: after an
    // abort the source may still be inside next(), and return() would wait for it.
    if (!done) iterator.return?.()?.catch(() => {});
  }
}

/**
 * The parser as a Web `TransformStream`: text chunks in, {@link A2uiStreamPart}s out. A parser
 * error errors the stream.
 *
 * @example
 * ```ts
 * const parts = response.body!
 *   .pipeThrough(new TextDecoderStream())
 *   .pipeThrough(createA2uiStreamTransform({ version: 'v0.9' }));
 * ```
 */
export function createA2uiStreamTransform(
  options: A2uiStreamParserOptions = {},
): TransformStream<string, A2uiStreamPart> {
  const parser = createA2uiStreamParser(options);
  return new TransformStream<string, A2uiStreamPart>({
    transform(chunk, controller) {
      for (const part of parser.push(chunk)) controller.enqueue(part);
    },
    flush(controller) {
      for (const part of parser.end()) controller.enqueue(part);
    },
  });
}
