import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { isA2uiMimeType } from './mime-types.js';
import { normalizeReservedKeys } from './normalize-reserved-keys.js';
import { createProtocolVersions, getProtocolVersion } from './protocol-versions.js';
import { v09 } from './v0-9.js';
import { v091 } from './v0-9-1.js';
import { v10 } from './v1-0.js';

describe('protocol version registry', () => {
  it('finds each built-in version by every envelope spelling', () => {
    expect(getProtocolVersion('v0.9')).toBe(v09);
    expect(getProtocolVersion('v0.9.1')).toBe(v091);
    expect(getProtocolVersion('v1.0')).toBe(v10);
    expect(getProtocolVersion('1.0')).toBe(v10);
    expect(createProtocolVersions().names).toEqual(['v0.8', 'v0.9', 'v0.9.1', 'v1.0']);
  });

  it('refuses an unknown version with the spec wording', () => {
    let caught: unknown;
    try {
      getProtocolVersion('v99.0');
    } catch (error) {
      caught = error;
    }
    expect(A2uiError.isInstance(caught)).toBe(true);
    expect((caught as A2uiError).code).toBe('VALIDATION_FAILED');
    expect((caught as A2uiError).path).toBe('/version');
    expect((caught as A2uiError).message).toContain("Unsupported protocol version 'v99.0'");
  });

  it('lists only the versions a "version" string selects (v0.8 messages carry none)', () => {
    expect(() => getProtocolVersion('v0.8')).toThrow(
      `Unsupported protocol version 'v0.8'. Supported: "v0.9", "v0.9.1", "v1.0".`,
    );
  });

  it('replaces a module registered again under the same name, with its spellings', () => {
    const registry = createProtocolVersions();
    registry.register({ ...v10, envelopeVersions: ['v1.0'] });
    expect(registry.find('1.0')).toBeUndefined();
    expect(registry.find('v1.0')?.name).toBe('v1.0');
    expect(registry.names).toEqual(['v0.8', 'v0.9', 'v0.9.1', 'v1.0']);
  });

  it('names transport constants per version', () => {
    expect(v09.a2aExtensionUri).toBe('https://a2ui.org/a2a-extension/a2ui/v0.9');
    expect(v091.a2aExtensionUri).toBe('https://a2ui.org/a2a-extension/a2ui/v0.9.1');
    expect(v10.a2aExtensionUri).toBe('https://a2ui.org/a2a-extension/a2ui/v1.0');
    expect(v091.mimeTypes[0]).toBe('application/a2ui+json');
    expect(v10.metadataKeys.capabilities).toBe('a2uiRendererCapabilities');
    expect(v091.metadataKeys.capabilities).toBe('a2uiClientCapabilities');
    expect(isA2uiMimeType('application/json+a2ui')).toBe(true);
    expect(isA2uiMimeType('Application/A2UI+JSON; charset=utf-8')).toBe(true);
    expect(isA2uiMimeType('application/json')).toBe(false);
  });
});

describe('renderer→agent encoding per version', () => {
  const action = {
    name: 'submit',
    surfaceId: 's',
    sourceComponentId: 'b',
    timestamp: '2026-01-01T00:00:00.000Z',
    context: { a: 1 },
    userMessage: 'Submitted',
  };

  it('writes v0.9 and v0.9.1 actions without v1.0 fields', () => {
    expect(v09.encodeAction(action)).toEqual({
      version: 'v0.9',
      action: {
        name: 'submit',
        surfaceId: 's',
        sourceComponentId: 'b',
        timestamp: action.timestamp,
        context: { a: 1 },
      },
    });
    expect(v091.encodeAction(action).version).toBe('v0.9.1');
  });

  it('writes the v1.0 action with its userMessage', () => {
    expect(v10.encodeAction(action)).toEqual({ version: 'v1.0', action });
  });

  it('writes v0.9 errors with the required surfaceId, "" when none', () => {
    expect(v09.encodeError({ code: 'INVALID_JSON', message: 'bad' })).toEqual({
      version: 'v0.9',
      error: { code: 'INVALID_JSON', message: 'bad', surfaceId: '' },
    });
  });

  it('writes v1.0 errors naming exactly one of surfaceId and functionCallId', () => {
    expect(
      v10.encodeError({ code: 'INVALID_FUNCTION_CALL', message: 'no', functionCallId: 'f1' }),
    ).toEqual({
      version: 'v1.0',
      error: { code: 'INVALID_FUNCTION_CALL', message: 'no', functionCallId: 'f1' },
    });
    expect(v10.encodeError({ code: 'DATA_ERROR', surfaceId: 's', message: 'x' })).toEqual({
      version: 'v1.0',
      error: { code: 'DATA_ERROR', surfaceId: 's', message: 'x' },
    });
    expect(
      v10.encodeError({
        code: 'UNALLOWED_CHILD',
        surfaceId: 's',
        path: '/a',
        message: 'x',
        extra: 1,
      }),
    ).toEqual({
      version: 'v1.0',
      error: { code: 'UNALLOWED_CHILD', surfaceId: 's', path: '/a', message: 'x' },
    });
  });
});

describe('v1.0 reserved-key spellings', () => {
  it('reads @-prefixed keys as bare ones and unescapes @@', () => {
    const input = {
      text: { '@path': '/name' },
      '@accessibility': { label: 'x' },
      '@@lit': 1,
      keep: [1],
    };
    const output = normalizeReservedKeys(input, '') as Record<string, unknown>;
    expect(output).toEqual({
      text: { path: '/name' },
      accessibility: { label: 'x' },
      '@lit': 1,
      keep: [1],
    });
    expect(Object.keys(output)).toEqual(['text', 'accessibility', '@lit', 'keep']);
    expect(output.keep).toBe(input.keep);
  });

  it('returns input without @ keys unchanged (same object)', () => {
    const input = { id: 'a', component: 'Text', text: { path: '/x' } };
    expect(normalizeReservedKeys(input, '')).toBe(input);
  });

  it('refuses unknown @ keys and two spellings of one key', () => {
    expect(() => normalizeReservedKeys({ '@nope': 1 }, '/c')).toThrow(/reserved/);
    expect(() => normalizeReservedKeys({ '@path': '/a', path: '/b' }, '/c')).toThrow(
      /two spellings/,
    );
  });
});
