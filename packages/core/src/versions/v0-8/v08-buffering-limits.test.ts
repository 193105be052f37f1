/**
 * v0.8 messages that wait for `beginRendering` (break-core): the buffer is bounded.
 */
import { describe, expect, it } from 'vitest';
import { createDefaultCatalogs } from '../../catalog/default-catalogs.js';
import { MessageProcessor } from '../../state/message-processor.js';

const text = (surfaceId: string) => ({
  surfaceUpdate: {
    surfaceId,
    components: [{ id: 'root', component: { Text: { text: { literalString: 'x' } } } }],
  },
});

describe('v0.8 messages before beginRendering', () => {
  it('are buffered up to 1000, then refused with LIMIT_EXCEEDED', () => {
    const processor = new MessageProcessor({ catalogs: createDefaultCatalogs() });
    const first = processor.process(Array.from({ length: 1000 }, (_, i) => text(`s${i}`)));
    expect(first.errors).toEqual([]);
    const { errors } = processor.process([text('more')]);
    expect(errors).toEqual([
      expect.objectContaining({ code: 'LIMIT_EXCEEDED', surfaceId: 'more' }),
    ]);
    // Releasing a buffered surface makes room again.
    expect(
      processor.process([{ beginRendering: { surfaceId: 's0', root: 'root' } }]).errors,
    ).toEqual([]);
    expect(processor.process([text('more')]).errors).toEqual([]);
  });
});
