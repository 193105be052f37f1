/**
 * The official A2UI v0.9 example streams (Apache-2.0, Google LLC), as shipped by
 * `@a2ui-ts/core/examples` with their license notice.
 */
import { EXAMPLE_STREAMS, type ExampleStream } from '@a2ui-ts/core/examples';

export type { ExampleStream };

/** Every example stream, basic catalog first, each folder in file-name order. */
export function loadExampleStreams(): readonly ExampleStream[] {
  return EXAMPLE_STREAMS;
}
