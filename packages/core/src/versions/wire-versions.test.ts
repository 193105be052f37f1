import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { toHttpError } from '../host/http-errors.js';
import {
  compareWireVersions,
  DEFAULT_A2UI_VERSIONS,
  negotiateWireVersions,
  parseWireVersion,
  parseWireVersionList,
  resolveA2uiVersions,
} from './wire-versions.js';

function thrown(run: () => unknown): A2uiError {
  try {
    run();
  } catch (error) {
    if (A2uiError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a throw');
}

describe('negotiateWireVersions', () => {
  it('picks the first version of the server list that the client offered', () => {
    expect(negotiateWireVersions(['v0.9', 'v1.0'], DEFAULT_A2UI_VERSIONS)).toEqual({
      version: 'v1.0',
      versions: ['v1.0', 'v0.9'],
    });
    // The server's order is its preference, not the client's.
    expect(negotiateWireVersions(['v1.0', 'v0.9'], ['v0.9', 'v1.0'])).toEqual({
      version: 'v0.9',
      versions: ['v0.9', 'v1.0'],
    });
  });

  it('compares numbers, answers in the server spelling and ignores unknown versions', () => {
    expect(negotiateWireVersions(['v0.8.0', 'v2.0'], ['v1.0', 'v0.8'])).toEqual({
      version: 'v0.8',
      versions: ['v0.8'],
    });
    // v0.9 and v0.9.1 are different versions.
    expect(negotiateWireVersions(['v0.9.1'], ['v0.9', 'v0.9.1']).version).toBe('v0.9.1');
  });

  it('refuses with NOT_SUPPORTED (406) naming both lists when nothing is shared', () => {
    const error = thrown(() => negotiateWireVersions(['v1.0'], ['v0.9']));
    expect(error.code).toBe('NOT_SUPPORTED');
    expect(error.message).toBe(
      'No A2UI version in common: the client offers v1.0; this server speaks v0.9.',
    );
    expect(error.data).toEqual({ httpStatus: 406, offered: ['v1.0'], supported: ['v0.9'] });
    expect(toHttpError(error)).toEqual({
      status: 406,
      headers: {},
      body: { error: { code: 'NOT_SUPPORTED', message: error.message, a2uiVersions: ['v0.9'] } },
    });
    expect(thrown(() => negotiateWireVersions([], ['v0.9'])).code).toBe('NOT_SUPPORTED');
  });

  it('parses tokens strictly', () => {
    for (const bad of [
      '1.0',
      'V1.0',
      'v1',
      'v01.0',
      'v1.0.0.0',
      ' v1.0',
      'v1.0-rc',
      '',
      'v1.0000000',
    ]) {
      const error = thrown(() => negotiateWireVersions([bad], DEFAULT_A2UI_VERSIONS));
      expect(error.code, bad).toBe('VALIDATION_FAILED');
    }
    expect(thrown(() => parseWireVersion(5 as unknown as string)).message).toContain('number');
    expect(parseWireVersion('v1.10.0')).toEqual({ major: 1, minor: 10, patch: 0 });
    expect(compareWireVersions('v1.10', 'v1.2')).toBeGreaterThan(0);
    expect(compareWireVersions('v0.8', 'v0.8.0')).toBe(0);
  });

  it('reads a comma-separated list', () => {
    expect(parseWireVersionList('v1.0,v0.9')).toEqual(['v1.0', 'v0.9']);
    expect(parseWireVersionList('v1.0, v0.9.1')).toEqual(['v1.0', 'v0.9.1']);
    expect(thrown(() => parseWireVersionList('v1.0,,v0.9')).code).toBe('VALIDATION_FAILED');
    expect(thrown(() => parseWireVersionList(Array(33).fill('v0.9').join(','))).code).toBe(
      'VALIDATION_FAILED',
    );
  });
});

describe('resolveA2uiVersions', () => {
  it('defaults to every version core speaks, newest first', () => {
    expect(resolveA2uiVersions(undefined)).toEqual(['v1.0', 'v0.9.1', 'v0.9', 'v0.8']);
    expect(resolveA2uiVersions(['v0.9'])).toEqual(['v0.9']);
  });

  it('refuses empty lists, duplicates and versions core does not speak', () => {
    expect(thrown(() => resolveA2uiVersions([])).message).toBe(
      'a2uiVersions: list at least one version.',
    );
    expect(thrown(() => resolveA2uiVersions(['v0.9', 'v0.9.0'])).message).toBe(
      'a2uiVersions: v0.9.0 is listed twice.',
    );
    expect(thrown(() => resolveA2uiVersions(['v2.0'])).message).toBe(
      'a2uiVersions: this engine does not speak v2.0 (it speaks v1.0, v0.9.1, v0.9, v0.8).',
    );
  });
});
