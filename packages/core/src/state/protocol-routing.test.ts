/**
 * MessageProcessor routes every message by its envelope `version` (issue 19): bad input — an
 * unknown version, a message mixing two versions' keys, a message of another version on a
 * surface — is a clear spec error and leaves every surface as it was.
 */
import { describe, expect, it } from 'vitest';
import { createDefaultCatalogs } from '../catalog/default-catalogs.js';
import { BASIC_CATALOG_ID } from '../protocol/constants.js';
import { V1_0_BASIC_CATALOG_ID } from '../versions/v1-0-catalogs.js';
import { MessageProcessor } from './message-processor.js';
import { snapshotState } from './snapshot.js';

const newProcessor = () => new MessageProcessor({ catalogs: createDefaultCatalogs() });
const text = (id: string, value = 'hi') => ({ id, component: 'Text', text: value });

function withV09AndV10Surfaces(): MessageProcessor {
  const processor = newProcessor();
  const { errors } = processor.process([
    { version: 'v0.9', createSurface: { surfaceId: 'old', catalogId: BASIC_CATALOG_ID } },
    { version: 'v0.9', updateComponents: { surfaceId: 'old', components: [text('root', 'v0.9')] } },
    {
      version: 'v1.0',
      createSurface: {
        surfaceId: 'new',
        catalogId: V1_0_BASIC_CATALOG_ID,
        components: [text('root', 'v1.0')],
      },
    },
  ]);
  expect(errors).toEqual([]);
  return processor;
}

describe('routing by envelope version', () => {
  it('remembers the version each surface was created in', () => {
    const processor = withV09AndV10Surfaces();
    expect(processor.getSurface('old')!.protocolVersion.name).toBe('v0.9');
    expect(processor.getSurface('new')!.protocolVersion.name).toBe('v1.0');
  });

  it('applies v0.9.1 messages with v0.9 semantics, and the v0_9_1 basic catalog id as an alias', () => {
    const processor = newProcessor();
    const { errors } = processor.process([
      {
        version: 'v0.9.1',
        createSurface: {
          surfaceId: 's',
          catalogId: 'https://a2ui.org/specification/v0_9_1/catalogs/basic/catalog.json',
        },
      },
      { version: 'v0.9.1', updateComponents: { surfaceId: 's', components: [text('root')] } },
      // v0.9 and v0.9.1 share a wire model: either may update the surface.
      { version: 'v0.9', updateDataModel: { surfaceId: 's', path: '/a', value: 1 } },
    ]);
    expect(errors).toEqual([]);
    const surface = processor.getSurface('s')!;
    expect(surface.protocolVersion.name).toBe('v0.9.1');
    expect(surface.catalogId).toBe(BASIC_CATALOG_ID);
    expect(surface.dataModel.getSnapshot()).toEqual({ a: 1 });
  });

  it('validates v0.9.1 messages against the v0.9 schemas', () => {
    const { errors } = newProcessor().process([
      {
        version: 'v0.9.1',
        createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID, theme: 3 },
      },
    ]);
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        surfaceId: 's',
        path: '/createSurface/theme',
      }),
    ]);
  });

  it('writes errors back in the version of their surface or message', () => {
    const processor = withV09AndV10Surfaces();
    const { errors } = processor.process([
      { version: 'v1.0', updateDataModel: { surfaceId: 'new', path: '/a' } },
      { version: 'v0.9', updateDataModel: { surfaceId: 'old', path: 7 } },
      {
        version: 'v1.0',
        callRendererFunction: {
          functionCallId: 'f1',
          callFunction: { call: 'now', catalogId: 'x' },
        },
      },
    ]);
    expect(errors).toHaveLength(3);
    const encoded = errors.map((error) => processor.protocolVersionOf(error).encodeError(error));
    expect(encoded.map((message) => message.version)).toEqual(['v1.0', 'v0.9', 'v1.0']);
    expect(encoded[2]).toEqual({
      version: 'v1.0',
      error: expect.objectContaining({ code: 'INVALID_FUNCTION_CALL', functionCallId: 'f1' }),
    });
    expect((encoded[2]!.error as Record<string, unknown>).surfaceId).toBeUndefined();
  });
});

describe('bad input across versions: a clear spec error, nothing else disturbed', () => {
  it('refuses an unknown version string', () => {
    const processor = withV09AndV10Surfaces();
    const before = snapshotState(processor);
    const { errors, applied } = processor.process({
      version: 'v99.0',
      updateComponents: { surfaceId: 'old', components: [text('root', 'changed')] },
    });
    expect(applied).toBe(0);
    expect(errors).toEqual([
      {
        code: 'VALIDATION_FAILED',
        surfaceId: 'old',
        path: '/version',
        message: expect.stringContaining("Unsupported protocol version 'v99.0'"),
      },
    ]);
    expect(snapshotState(processor)).toEqual(before);
  });

  it('names only the versions a "version" can select, echoes a bounded prefix of the value, and keeps serving', () => {
    const processor = withV09AndV10Surfaces();
    const before = snapshotState(processor);
    const huge = 'v'.repeat(1_000_000);
    const change = { surfaceId: 'old', components: [text('root', 'changed')] };
    const refused = processor.process([
      { version: 'v0.8', updateComponents: change },
      { version: huge, updateComponents: change },
      { version: ['v0.9'], updateComponents: change },
    ]);
    expect(refused.applied).toBe(0);
    expect(refused.errors.map((error) => error.message)).toEqual([
      `Unsupported protocol version 'v0.8'. Supported: "v0.9", "v0.9.1", "v1.0" (v0.8 messages carry no "version").`,
      `Unsupported protocol version '${'v'.repeat(64)}'…. Supported: "v0.9", "v0.9.1", "v1.0" (v0.8 messages carry no "version").`,
      `Unsupported protocol version (a JSON array). Supported: "v0.9", "v0.9.1", "v1.0" (v0.8 messages carry no "version").`,
    ]);
    expect(snapshotState(processor)).toEqual(before);
    // The processor keeps serving: the same change, correctly versioned, applies.
    expect(processor.process({ version: 'v0.9', updateComponents: change })).toMatchObject({
      applied: 1,
      errors: [],
    });
  });

  it('refuses a message without a version', () => {
    const { errors } = newProcessor().process({
      createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
    });
    expect(errors).toEqual([expect.objectContaining({ path: '/version', surfaceId: 's' })]);
  });

  it('refuses a v1.0 message on a v0.9 surface, and the reverse', () => {
    const processor = withV09AndV10Surfaces();
    const before = snapshotState(processor);
    const { errors } = processor.process([
      { version: 'v1.0', updateComponents: { surfaceId: 'old', components: [text('root', 'x')] } },
      { version: 'v1.0', updateDataModel: { surfaceId: 'old', path: '/a', value: 1 } },
      { version: 'v1.0', deleteSurface: { surfaceId: 'old' } },
      { version: 'v0.9', updateComponents: { surfaceId: 'new', components: [text('root', 'x')] } },
      { version: 'v0.9.1', updateDataModel: { surfaceId: 'new', path: '/a', value: 1 } },
      { version: 'v0.9', deleteSurface: { surfaceId: 'new' } },
    ]);
    expect(errors).toHaveLength(6);
    for (const error of errors) {
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.message).toMatch(
        /was created in v(0\.9|1\.0); a v(0\.9(\.1)?|1\.0) \w+ cannot change it/,
      );
    }
    expect(snapshotState(processor)).toEqual(before);
  });

  it("refuses a message mixing two versions' keys", () => {
    const processor = withV09AndV10Surfaces();
    const before = snapshotState(processor);
    const { errors } = processor.process([
      {
        version: 'v0.9',
        deleteSurface: { surfaceId: 'old' },
        callRendererFunction: {
          functionCallId: 'f',
          callFunction: { call: 'now', catalogId: 'c' },
        },
      },
      { version: 'v0.9', agentFunctionResponse: { functionCallId: 'f', value: 1 } },
      {
        surfaceUpdate: { surfaceId: 'old', components: [] },
        updateComponents: { surfaceId: 'old', components: [text('root', 'x')] },
      },
    ]);
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        path: '/callRendererFunction',
        message: expect.stringContaining(
          'Message mixes protocol versions: "callRendererFunction" is a v1.0 message',
        ),
      }),
      expect.objectContaining({
        path: '/agentFunctionResponse',
        message: expect.stringContaining('mixes protocol versions'),
      }),
      expect.objectContaining({
        path: '/updateComponents',
        message: expect.stringContaining(
          '"updateComponents" is a v0.9 message, but this message has no "version" and a v0.8 message kind',
        ),
      }),
    ]);
    expect(snapshotState(processor)).toEqual(before);
    // The processor keeps serving: a well-formed message of the surface's version applies.
    const change = { surfaceId: 'old', components: [text('root', 'changed')] };
    expect(processor.process({ version: 'v0.9', updateComponents: change })).toMatchObject({
      applied: 1,
      errors: [],
    });
  });

  it("refuses a message carrying two kinds, in each version's wording", () => {
    const { errors } = newProcessor().process([
      {
        version: 'v0.9',
        createSurface: { surfaceId: 's1', catalogId: BASIC_CATALOG_ID },
        deleteSurface: { surfaceId: 's1' },
      },
      {
        version: 'v1.0',
        createSurface: { surfaceId: 's1', catalogId: V1_0_BASIC_CATALOG_ID },
        deleteSurface: { surfaceId: 's1' },
      },
    ]);
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringContaining('Message contains multiple conflicting update actions'),
      expect.stringContaining('Message contains multiple update types'),
    ]);
  });

  it('refuses a v0.9 catalog on a v1.0 surface', () => {
    const processor = newProcessor();
    const { errors } = processor.process({
      version: 'v1.0',
      createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID },
    });
    expect(errors).toEqual([
      expect.objectContaining({
        code: 'CATALOG_VERSION_MISMATCH',
        message: `Protocol version mismatch: cannot mix catalog '${BASIC_CATALOG_ID}' (v0.9) with surface version v1.0.`,
      }),
    ]);
    expect(processor.getSurface('s')).toBeUndefined();
  });

  it('ignores v0.8 message names in v0.9 and v1.0 envelopes', () => {
    const processor = newProcessor();
    const { errors } = processor.process([
      { version: 'v0.9', beginRendering: { surfaceId: 'a', catalogId: 'c' } },
      { version: 'v1.0', beginRendering: { surfaceId: 'b', catalogId: 'c' } },
    ]);
    expect(errors).toHaveLength(2);
    expect(processor.getSurfaces()).toEqual([]);
  });
});
