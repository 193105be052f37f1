/**
 * The official basic-catalog example streams as JSON text in each protocol version core reads:
 * v0.9 as published, v0.8 and v1.0 as committed by `migrateBasicExamples` (the same UIs), so
 * that the benchmark compares versions on the same content.
 */
import { readFileSync } from 'node:fs';
import { EXAMPLE_STREAMS } from '../src/testing/example-streams.js';
import { MIGRATED_EXAMPLE_FOLDERS } from '../src/testing/migrated-examples.js';

/** One version's corpus: every example stream, each message as the text a transport delivers. */
export interface VersionCorpus {
  readonly version: 'v0.8' | 'v0.9' | 'v1.0';
  readonly streams: readonly (readonly string[])[];
  /** Messages in one replay of every stream (v0.8 splits the same UI into more messages). */
  readonly messages: number;
  /** UTF-8 bytes of those messages. */
  readonly bytes: number;
}

const corpus = (version: VersionCorpus['version'], streams: string[][]): VersionCorpus => ({
  version,
  streams,
  messages: streams.reduce((sum, stream) => sum + stream.length, 0),
  bytes: streams.reduce(
    (sum, stream) => sum + stream.reduce((size, text) => size + Buffer.byteLength(text), 0),
    0,
  ),
});

/** The basic-catalog examples in v0.8, v0.9 and v1.0, in that order. */
export function loadVersionCorpora(): VersionCorpus[] {
  const basic = EXAMPLE_STREAMS.filter((example) => example.catalog === 'basic');
  const migrated = (version: 'v0.8' | 'v1.0') =>
    basic.map((example) => {
      const url = new URL(
        `../src/testing/fixtures/${MIGRATED_EXAMPLE_FOLDERS[version]}/${example.file}`,
        import.meta.url,
      );
      const sample = JSON.parse(readFileSync(url, 'utf8')) as { messages: unknown[] };
      return sample.messages.map((message) => JSON.stringify(message));
    });
  return [
    corpus('v0.8', migrated('v0.8')),
    corpus(
      'v0.9',
      basic.map((example) => example.messages.map((message) => JSON.stringify(message))),
    ),
    corpus('v1.0', migrated('v1.0')),
  ];
}
