import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { DEFAULT_MAX_DEPTH } from '../validation/find-depth-violation.js';
import {
  createA2uiStreamParser,
  DEFAULT_MAX_BLOCK_BYTES,
  streamParserCharsRead,
} from './a2ui-stream-parser.js';
import type { A2uiStreamPart } from './stream-types.js';

const createSurface = {
  version: 'v0.9',
  createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
};

/**
 * Characters read per character of input the parser may spend. Each push may re-read the message
 * being written once or twice (a bounded-depth partial message is re-parsed to show what is new),
 * so the bound is a multiple of the depth cap, never of the number of pushes.
 */
const READS_PER_INPUT_CHAR = 4 * DEFAULT_MAX_DEPTH;

/** Where the ever-deeper value is written: a data-model value or a component property. */
const OPENINGS = {
  'a data-model value': `{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":`,
  'a component property': `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":`,
  'the block itself': '',
};

function messagesOf(parts: readonly A2uiStreamPart[]): unknown[] {
  return parts.flatMap((part) => (part.type === 'messages' ? part.messages : []));
}

describe('createA2uiStreamParser: work per push', () => {
  for (const [where, opening] of Object.entries(OPENINGS)) {
    for (const level of ['[', '{"a":']) {
      it(`reads ${where} opened one level (${level}) per push in work linear in the input, then refuses it past the depth cap`, () => {
        const parser = createA2uiStreamParser();
        const head = `<a2ui-json>[${JSON.stringify(createSurface)},${opening}`;
        const delivered = messagesOf(parser.push(head));
        let fed = head.length;
        let failure: unknown;
        // Stop as soon as the budget is spent: before the depth cap, work per push grew with
        // the buffer and 10,000 pushes would take hours, not fail.
        for (let push = 0; push < 10_000; push++) {
          if (streamParserCharsRead(parser) > READS_PER_INPUT_CHAR * fed) break;
          fed += level.length;
          try {
            delivered.push(...messagesOf(parser.push(level)));
          } catch (error) {
            failure = error;
            break;
          }
        }
        expect(streamParserCharsRead(parser)).toBeLessThanOrEqual(READS_PER_INPUT_CHAR * fed);
        expect(delivered[0]).toEqual(createSurface);
        expect(A2uiError.isInstance(failure)).toBe(true);
        const error = failure as A2uiError;
        expect(error.code).toBe('VALIDATION_FAILED');
        expect(error.data).toMatchObject({
          reason: 'depth',
          issues: [{ keyword: 'maxDepth' }],
        });
        expect(error.message).toContain(`more than ${DEFAULT_MAX_DEPTH} levels deep`);
        // The parser is spent: the same error again, nothing else.
        expect(() => parser.push('}')).toThrow(error);
      });
    }
  }

  it('streams a long data-model update one entry per push in work linear in the input, each entry sent once', () => {
    // Entries already sent are not read again: each push reads its own text, the entry in
    // progress and the update's head.
    const readsPerInputChar = 16;
    const parser = createA2uiStreamParser();
    const head = `<a2ui-json>[${JSON.stringify(createSurface)},{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{`;
    const delivered = messagesOf(parser.push(head));
    let fed = head.length;
    for (let entry = 0; entry < 10_000; entry++) {
      if (streamParserCharsRead(parser) > readsPerInputChar * fed) break;
      const text = `${entry === 0 ? '' : ','}"k${entry}":"v${entry}"`;
      fed += text.length;
      delivered.push(...messagesOf(parser.push(text)));
    }
    expect(streamParserCharsRead(parser)).toBeLessThanOrEqual(readsPerInputChar * fed);
    // While it streams, each entry is sent once, as it completes…
    const sent = new Map<string, unknown[]>();
    for (const message of delivered.slice(1)) {
      const { value } = (message as { updateDataModel: { value: Record<string, unknown> } })
        .updateDataModel;
      for (const [key, entry] of Object.entries(value))
        sent.set(key, [...(sent.get(key) ?? []), entry]);
    }
    expect(sent.size).toBe(10_000);
    expect([...sent.values()].every((values) => values.length === 1)).toBe(true);
    expect(sent.get('k9999')).toEqual(['v9999']);
    // …and the finished update is sent whole.
    const [finished] = messagesOf([...parser.push('}}}]</a2ui-json>'), ...parser.end()]);
    expect(
      Object.keys((finished as { updateDataModel: { value: object } }).updateDataModel.value),
    ).toHaveLength(10_000);
  });

  it.each([
    [
      'two levels deep (an object of objects)',
      '{"items":{',
      (index: number) => `"k${index}":{"name":"v${index}"}`,
      '}}',
    ],
    [
      'three levels deep (an array in an object)',
      '{"a":{"b":[',
      (index: number) => `{"n":${index}}`,
      ']}}',
    ],
  ])(
    'streams a data-model entry %s one item per push in work linear in the input',
    (_, opening, item, closing) => {
      const readsPerInputChar = 16;
      const items = 1_000;
      const parser = createA2uiStreamParser();
      const head = `<a2ui-json>[${JSON.stringify(createSurface)},{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":${opening}`;
      const delivered = messagesOf(parser.push(head));
      let fed = head.length;
      for (let index = 0; index < items; index++) {
        if (streamParserCharsRead(parser) > readsPerInputChar * fed) break;
        const text = `${index === 0 ? '' : ','}${item(index)}`;
        fed += text.length;
        delivered.push(...messagesOf(parser.push(text)));
      }
      expect(streamParserCharsRead(parser)).toBeLessThanOrEqual(readsPerInputChar * fed);
      // Each send holds the whole entry as far as it arrived (as the reference parser sends it).
      const whole = JSON.parse(
        `${opening}${Array.from({ length: items }, (_, index) => item(index)).join(',')}${closing}`,
      );
      const last = delivered.at(-1) as { updateDataModel: { value: unknown } };
      expect(last.updateDataModel.value).toEqual(whole);
      // The finished update changes nothing that was not sent: nothing more goes out.
      const finished = messagesOf([...parser.push(`${closing}}}]</a2ui-json>`), ...parser.end()]);
      expect(finished).toEqual([]);
    },
  );

  it('accepts a message nested exactly to the depth cap', () => {
    const parser = createA2uiStreamParser({ validateMessage: false });
    // The message is level 1, its payload level 2, `value` level 3: 61 more levels inside.
    const inner = DEFAULT_MAX_DEPTH - 3;
    const value = `${'{"a":'.repeat(inner)}1${'}'.repeat(inner)}`;
    const message = `{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":${value}}}`;
    const parts = [...parser.push(`<a2ui-json>[${message}]</a2ui-json>`), ...parser.end()];
    expect(messagesOf(parts).at(-1)).toEqual(JSON.parse(message));
  });
});

describe('createA2uiStreamParser: one long component message, one component per push', () => {
  const COMPONENTS = 2_000;
  const updateHead = `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[`;

  /** A parser whose validator counts the components it is shown. */
  function countingParser() {
    const shown = { components: 0 };
    const parser = createA2uiStreamParser({
      validateMessage: (message) => {
        const payload = (message as { updateComponents?: { components?: unknown[] } })
          .updateComponents;
        shown.components += payload?.components?.length ?? 0;
        return [];
      },
    });
    return { parser, shown };
  }

  type Sent = { updateComponents: { components: { id: string; child?: string }[] } };
  const lastComponents = (delivered: unknown[]) =>
    (delivered.at(-1) as Sent).updateComponents.components;

  it('a chain (each component shows the next): reads, copies and validates each component a bounded number of times', () => {
    const { parser, shown } = countingParser();
    const head = `<a2ui-json>[${JSON.stringify(createSurface)},${updateHead}`;
    const delivered = messagesOf(parser.push(head));
    let fed = head.length;
    for (let index = 0; index < COMPONENTS; index++) {
      const text = `${index === 0 ? '' : ','}{"id":"${index === 0 ? 'root' : `c${index}`}","component":"Card","child":"c${index + 1}"}`;
      fed += text.length;
      delivered.push(...messagesOf(parser.push(text)));
    }
    // Each push shows the new component and the one before it (its placeholder resolved).
    expect(shown.components).toBeLessThanOrEqual(4 * COMPONENTS);
    expect(streamParserCharsRead(parser)).toBeLessThanOrEqual(16 * fed);
    // Every send still holds the whole reachable tree, placeholder last.
    const components = lastComponents(delivered);
    expect(components).toHaveLength(COMPONENTS + 1);
    expect(components.at(-1)).toEqual({
      id: `loading_c${COMPONENTS}`,
      component: 'Row',
      children: [],
    });
  });

  it('a root listing every child first: validates each component once as it arrives, and sends the whole tree', () => {
    const { parser, shown } = countingParser();
    // Half as many: the whole tree goes out on every push (as the reference parser sends it).
    const COMPONENTS = 1_000;
    const ids = Array.from({ length: COMPONENTS }, (_, index) => `"c${index}"`).join(',');
    const head = `<a2ui-json>[${JSON.stringify(createSurface)},${updateHead}{"id":"root","component":"Column","children":[${ids}]}`;
    const delivered = messagesOf(parser.push(head));
    for (let index = 0; index < COMPONENTS; index++) {
      delivered.push(
        ...messagesOf(parser.push(`,{"id":"c${index}","component":"Text","text":"t${index}"}`)),
      );
    }
    // Each push: the new component, the root (one placeholder fewer) and the first send's
    // placeholders once. The whole tree on every push would be 500,000.
    expect(shown.components).toBeLessThanOrEqual(4 * COMPONENTS);
    const components = lastComponents(delivered);
    expect(components.map((component) => component.id)).toEqual(
      [...Array.from({ length: COMPONENTS }, (_, index) => `c${index}`), 'root'].sort(),
    );
    const finished = messagesOf([...parser.push(']}}]</a2ui-json>'), ...parser.end()]);
    expect(finished).toEqual([]);
  });
});

describe('createA2uiStreamParser: maxBlockBytes', () => {
  const tooLarge = expect.objectContaining({ code: 'MESSAGE_TOO_LARGE' });
  const dataModel = (value: string) =>
    `{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":${value}}}`;

  it('refuses a block growing past the limit once, skips its rest unread and reads what follows', () => {
    const maxBlockBytes = 50_000;
    const parser = createA2uiStreamParser({ maxBlockBytes });
    const opening = `<a2ui-json>[${JSON.stringify(createSurface)},${dataModel('{"big":"')}`;
    expect(messagesOf(parser.push(opening))).toEqual([createSurface]);
    let error: A2uiError | undefined;
    let readAtError = 0;
    // 2 MB in 1 kB pushes: 40 times the limit.
    for (let push = 0; push < 2_000; push++) {
      try {
        parser.push('x'.repeat(1_000));
      } catch (thrown) {
        expect(error).toBeUndefined();
        error = thrown as A2uiError;
        readAtError = streamParserCharsRead(parser);
      }
    }
    expect(error?.code).toBe('MESSAGE_TOO_LARGE');
    expect(error?.data).toEqual({ reason: 'size', maxBlockBytes });
    expect(error?.message).toContain('larger than 50000 bytes (maxBlockBytes)');
    // The skipped text was not read (nor kept).
    expect(streamParserCharsRead(parser)).toBe(readAtError);
    const after = `"}}}]</a2ui-json> Still here. <a2ui-json>[${dataModel('{"ok":1}')}]</a2ui-json>`;
    const parts = [...parser.push(after), ...parser.end()];
    expect(parts[0]).toEqual({ type: 'text', text: ' Still here. ' });
    expect(messagesOf(parts)).toEqual([JSON.parse(dataModel('{"ok":1}'))]);
  });

  it('reads the rest of the chunk that crossed the limit, and returns its parts on the next call', () => {
    const parser = createA2uiStreamParser({ maxBlockBytes: 150 });
    const chunk = `Hi <a2ui-json>[${dataModel(`"${'y'.repeat(200)}"`)}]</a2ui-json> bye <a2ui-json>[${JSON.stringify(createSurface)}]</a2ui-json>`;
    expect(() => parser.push(chunk)).toThrow(tooLarge);
    const parts = [...parser.push(''), ...parser.end()];
    expect(parts).toEqual([
      { type: 'text', text: 'Hi ' },
      { type: 'text', text: ' bye ' },
      { type: 'messages', messages: [createSurface] },
    ]);
  });

  it('counts a surrogate pair split across two pushes as the 4 bytes UTF-8 gives it', () => {
    const json = `[${dataModel('{"t":"😀"}')}]`;
    const maxBlockBytes = new TextEncoder().encode(json).length;
    const split = json.indexOf('😀') + 1;
    const exact = createA2uiStreamParser({ maxBlockBytes, validateMessage: false });
    const parts = [
      ...exact.push(`<a2ui-json>${json.slice(0, split)}`),
      ...exact.push(`${json.slice(split)}</a2ui-json>`),
      ...exact.end(),
    ];
    expect(messagesOf(parts)).toEqual(JSON.parse(json));
    // One byte less is still too large: the pair is not undercounted either.
    const short = createA2uiStreamParser({
      maxBlockBytes: maxBlockBytes - 1,
      validateMessage: false,
    });
    short.push(`<a2ui-json>${json.slice(0, split)}`);
    expect(() => short.push(`${json.slice(split)}</a2ui-json>`)).toThrow(tooLarge);
  });

  it('counts a lone surrogate at the end of a push as U+FFFD (3 bytes)', () => {
    // The block's JSON: a high surrogate not followed by its low half, then "x".
    const json = `[${dataModel('{"t":"\uD83Dx"}')}]`;
    const bytes = new TextEncoder().encode(json).length;
    const split = json.indexOf('\uD83D') + 1;
    const short = createA2uiStreamParser({ maxBlockBytes: bytes - 1, validateMessage: false });
    short.push(`<a2ui-json>${json.slice(0, split)}`);
    expect(() => short.push(`${json.slice(split)}</a2ui-json>`)).toThrow(tooLarge);
    const exact = createA2uiStreamParser({ maxBlockBytes: bytes, validateMessage: false });
    exact.push(`<a2ui-json>${json.slice(0, split)}`);
    expect(() => exact.push(`${json.slice(split)}</a2ui-json>`)).not.toThrow();
  });

  it('defaults to 4 MiB, counted in UTF-8 bytes', () => {
    expect(DEFAULT_MAX_BLOCK_BYTES).toBe(4 * 1_048_576);
    const parser = createA2uiStreamParser({ validateMessage: false });
    // Two bytes a character: with the 60 bytes around them, 4 MiB + 20 bytes of UTF-8 (but fewer
    // than 4 Mi UTF-16 units).
    const text = 'é'.repeat(DEFAULT_MAX_BLOCK_BYTES / 2 - 20);
    const block = `<a2ui-json>[${dataModel(`{"t":"${text}`)}`;
    expect(() => parser.push(block)).toThrow(tooLarge);
    expect(streamParserCharsRead(parser)).toBe(0);
    expect(parser.end()).toEqual([]);
  });
});

describe('createA2uiStreamParser: limit options', () => {
  const invalid: readonly unknown[] = [
    0,
    -1,
    1.5,
    Number.NaN,
    Number.NEGATIVE_INFINITY,
    '64',
    null,
  ];
  for (const option of ['maxBlockBytes', 'maxDepth'] as const) {
    for (const value of invalid) {
      it(`refuses ${option}: ${String(value)} when the parser is created`, () => {
        let error: unknown;
        try {
          createA2uiStreamParser({ [option]: value as number });
        } catch (thrown) {
          error = thrown;
        }
        expect(error).toBeInstanceOf(A2uiError);
        expect((error as A2uiError).code).toBe('VALIDATION_FAILED');
        expect((error as A2uiError).message).toContain(
          `${option} must be a positive integer or Infinity`,
        );
        expect((error as A2uiError).data).toEqual({ reason: 'option', option });
      });
    }
    it(`accepts ${option}: Infinity and a positive integer`, () => {
      for (const value of [Number.POSITIVE_INFINITY, 64]) {
        const parser = createA2uiStreamParser({ [option]: value, validateMessage: false });
        expect(messagesOf(parser.push('<a2ui-json>{"a":1}</a2ui-json>'))).toEqual([{ a: 1 }]);
      }
    });
  }
});

describe('createA2uiStreamParser: one long string written a few characters per push', () => {
  const CHUNK = 5;
  /** Where the long string is written, and how its finished message reads it back. */
  const PLACES = {
    'a data-model string value': {
      opening: `{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"text":"`,
      closing: '"}}}]</a2ui-json>',
      valueOf: (message: unknown) =>
        (message as { updateDataModel?: { value?: { text?: unknown } } }).updateDataModel?.value
          ?.text,
    },
    "a component's text": {
      opening: `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"`,
      closing: '"}]}}]</a2ui-json>',
      valueOf: (message: unknown) =>
        (message as { updateComponents?: { components?: { text?: unknown }[] } }).updateComponents
          ?.components?.[0]?.text,
    },
  };

  /**
   * What the first characters may cost: up to `partialStringEagerChars` (1 KiB) an open string
   * is read and sent again on every push, a fixed cost whatever the string's final length.
   */
  const EAGER_ALLOWANCE = 1_000_000;
  /** Characters read per further input character. */
  const READS_PER_CHAR = 64;

  /**
   * Streams a string of `length` characters `CHUNK` at a time; stops early once the parser has
   * read more than its budget (before the fix, 80 KB read 2 billion characters).
   */
  function stream(place: (typeof PLACES)[keyof typeof PLACES], length: number) {
    const parser = createA2uiStreamParser();
    const head = `<a2ui-json>[${JSON.stringify(createSurface)},${place.opening}`;
    const delivered = messagesOf(parser.push(head));
    let fed = head.length;
    let complete = true;
    for (let written = 0; written < length; written += CHUNK) {
      if (streamParserCharsRead(parser) > EAGER_ALLOWANCE + READS_PER_CHAR * fed) {
        complete = false;
        break;
      }
      const chunk = 'abcde'.slice(0, Math.min(CHUNK, length - written));
      fed += chunk.length;
      delivered.push(...messagesOf(parser.push(chunk)));
    }
    const finished = messagesOf([...parser.push(place.closing), ...parser.end()]);
    delivered.push(...finished);
    const sentChars = delivered.reduce<number>((sum, m) => sum + JSON.stringify(m).length, 0);
    return { read: streamParserCharsRead(parser), fed, complete, delivered, sentChars };
  }

  for (const [where, place] of Object.entries(PLACES)) {
    it(`reads and sends ${where} in work linear in its length, and sends it whole and exact`, () => {
      const short = stream(place, 20_000);
      const long = stream(place, 80_000);
      expect(short.complete).toBe(true);
      expect(long.complete).toBe(true);
      // Four times the input costs at most about four times the reading, not sixteen; each
      // further input character a bounded number of reads.
      expect(long.read / short.read).toBeLessThan(5);
      expect(long.read - short.read).toBeLessThanOrEqual(READS_PER_CHAR * (long.fed - short.fed));
      // What is sent grows linearly too: a bounded number of copies of the string.
      expect(long.sentChars / short.sentChars).toBeLessThan(5);
      expect(long.sentChars - short.sentChars).toBeLessThanOrEqual(16 * (long.fed - short.fed));
      // The cut string still shows while written, and its last send is the whole string.
      const values = long.delivered.map(place.valueOf).filter((v) => typeof v === 'string');
      expect(values.length).toBeGreaterThan(2);
      expect(values.at(-1)).toBe('abcde'.repeat(16_000));
    });
  }
});

describe('createA2uiStreamParser: partialStringEagerChars and partialStringMinGrowth', () => {
  const options = { partialStringEagerChars: 10, partialStringMinGrowth: 1 };

  it('shows an open data-model string on every push while short, then only once it has grown by the fraction, and whole once finished', () => {
    const parser = createA2uiStreamParser(options);
    const opening = `{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":{"text":"`;
    const shown: number[] = [];
    const read = (parts: readonly A2uiStreamPart[]) => {
      for (const message of messagesOf(parts)) {
        const text = (message as { updateDataModel?: { value: { text?: string } } }).updateDataModel
          ?.value.text;
        if (text !== undefined) shown.push(text.length);
      }
    };
    read(parser.push(`<a2ui-json>[${JSON.stringify(createSurface)},${opening}`));
    for (let index = 0; index < 100; index++) read(parser.push('x'));
    read([...parser.push('"}}}]</a2ui-json>'), ...parser.end()]);
    // The JSON text counts its opening quote: 9 characters are 10 units, then each read waits
    // until the text has doubled (20, 40, 80 units), and the finished text goes out at once.
    expect(shown).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 19, 39, 79, 100]);
  });

  it('reads a long component once when its text finishes, not again on each push until it closes', () => {
    const parser = createA2uiStreamParser();
    const text = 'abcde'.repeat(16_000);
    const opening = `{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"`;
    const delivered = messagesOf(
      parser.push(`<a2ui-json>[${JSON.stringify(createSurface)},${opening}${text}`),
    );
    delivered.push(...messagesOf(parser.push('"')));
    type Sent = { updateComponents: { components: { text: string; variant?: string }[] } };
    // The finished text is shown at once…
    expect((delivered.at(-1) as Sent).updateComponents.components[0]?.text).toBe(text);
    // …and the pushes that follow, while the component is still open, do not read it again each.
    const before = streamParserCharsRead(parser);
    for (const char of ',"variant":"body"') delivered.push(...messagesOf(parser.push(char)));
    expect(streamParserCharsRead(parser) - before).toBeLessThan(text.length);
    delivered.push(...messagesOf([...parser.push('}]}}]</a2ui-json>'), ...parser.end()]));
    expect((delivered.at(-1) as Sent).updateComponents.components[0]).toEqual({
      id: 'root',
      component: 'Text',
      text,
      variant: 'body',
    });
  });
});
