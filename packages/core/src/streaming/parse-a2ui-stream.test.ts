import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { createA2uiStreamTransform, parseA2uiStream } from './parse-a2ui-stream.js';
import type { A2uiStreamPart } from './stream-types.js';

const CREATE = { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: 'c' } };
const BLOCK = `<a2ui-json>[${JSON.stringify(CREATE)}]</a2ui-json>`;

async function* chunks(...texts: string[]): AsyncGenerator<string> {
  for (const text of texts) yield text;
}

async function collect(parts: AsyncIterable<A2uiStreamPart>): Promise<A2uiStreamPart[]> {
  const all: A2uiStreamPart[] = [];
  for await (const part of parts) all.push(part);
  return all;
}

async function readAll(stream: ReadableStream<A2uiStreamPart>): Promise<A2uiStreamPart[]> {
  const reader = stream.getReader();
  const all: A2uiStreamPart[] = [];
  for (let result = await reader.read(); !result.done; result = await reader.read()) {
    all.push(result.value);
  }
  return all;
}

describe('parseA2uiStream', () => {
  it('yields the parts of every chunk, then what the end releases', async () => {
    const parts = await collect(parseA2uiStream(chunks('Hi <a2', 'b> ok <a2ui')));
    expect(parts).toEqual([
      { type: 'text', text: 'Hi ' },
      { type: 'text', text: '<a2b> ok ' },
      { type: 'text', text: '<a2ui' },
    ]);
  });

  it('stops with ABORTED when the signal fires while the source is silent', async () => {
    const controller = new AbortController();
    let waiting: () => void = () => {};
    const silent = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    async function* stalled(): AsyncGenerator<string> {
      yield 'first ';
      waiting();
      await new Promise(() => {});
    }
    const iterator = parseA2uiStream(stalled(), { signal: controller.signal });
    expect((await iterator.next()).value).toEqual({ type: 'text', text: 'first ' });
    const pending = iterator.next();
    await silent;
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(A2uiError.isInstance(error) && error.code).toBe('ABORTED');
  });

  it('rejects at once when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await collect(parseA2uiStream(chunks('x'), { signal: controller.signal })).catch(
      (caught: unknown) => caught,
    );
    expect(A2uiError.isInstance(error) && error.code).toBe('ABORTED');
  });

  it('closes the source when the consumer stops early', async () => {
    let closed = false;
    async function* source(): AsyncGenerator<string> {
      try {
        yield 'a';
        yield 'b';
      } finally {
        closed = true;
      }
    }
    for await (const _part of parseA2uiStream(source())) break;
    expect(closed).toBe(true);
  });
});

describe('createA2uiStreamTransform', () => {
  it('turns a stream of text into parts', async () => {
    const source = new ReadableStream<string>({
      start(controller) {
        controller.enqueue('Note ');
        controller.enqueue(BLOCK);
        controller.close();
      },
    });
    const parts = await readAll(
      source.pipeThrough(createA2uiStreamTransform({ validateMessage: false })),
    );
    expect(parts).toEqual([
      { type: 'text', text: 'Note ' },
      { type: 'messages', messages: [CREATE] },
    ]);
  });
});
