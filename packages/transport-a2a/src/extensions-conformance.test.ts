/**
 * The official conformance cases of the A2A extension (`conformance/extensions/a2a/`, copied in
 * core's fixtures), run against this package: parts and MIME types, the extension declaration,
 * and extension activation against a real server on port 0 (the echoed `A2A-Extensions`). The
 * ADK cases (`extensions/adk/`) are reported not applicable with their reason (core's
 * `NOT_APPLICABLE_CASES`).
 */
import { A2UI_CLOSE_TAG, compareWireVersions, negotiateWireVersions } from '@a2ui-ts/core';
import {
  findSubsetMismatch,
  type LocatedConformanceCase,
  NOT_APPLICABLE_CASES,
} from '@a2ui-ts/core/testing';
import { loadConformanceSuite } from '@a2ui-ts/core/testing/node';
import { afterAll, describe, expect, it } from 'vitest';
import { postRpc, v1SendBody } from '../test/agents.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import {
  a2uiAgentExtension,
  a2uiExtensionUriOf,
  a2uiVersionOfExtensionUri,
  isA2uiMimeType,
} from './protocol/a2ui-extension.js';
import { createA2uiDataPart, partMimeType } from './protocol/a2ui-parts.js';
import { partsOfAgentText } from './protocol/agent-text-parts.js';

const cases = loadConformanceSuite({ folders: ['extensions'] });
const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

/** The version token of the official SDKs' bare numbers (`"0.8"` → `v0.8`). */
const token = (version: unknown) => `v${String(version)}`;

/**
 * The extension a real server activates for a request that asks for `requested` (the
 * `A2A-Extensions` header), when it speaks `versions`: the echoed header, or `null`.
 */
async function activated(requested: readonly string[], versions?: string[]) {
  const server = await startTestServer({
    agent: {},
    ...(versions ? { a2uiVersions: versions } : {}),
  });
  servers.push(server);
  const response = await postRpc(
    `${server.node.url}/`,
    v1SendBody('SendMessage', { parts: [{ text: 'hi' }] }),
    {
      'A2A-Version': '1.0',
      ...(requested.length > 0 ? { 'A2A-Extensions': requested.join(', ') } : {}),
    },
  );
  await response.text();
  return response.headers.get('a2a-extensions');
}

/** `handle_rpc`: the agent's text output as parts, in the suite's `{kind, text | mimeType, data}`. */
async function partsOfRunnerOutput(text: string) {
  return (await partsOfAgentText(text)).map((part) =>
    part.content?.$case === 'text'
      ? { kind: 'text', text: part.content.value }
      : { kind: 'data', mimeType: partMimeType(part), data: part.content?.value },
  );
}

/** Runs one case; returns its mismatches. */
async function run(located: LocatedConformanceCase): Promise<string[]> {
  const { testCase } = located;
  const args = testCase.args ?? {};
  const want = testCase.expect;
  const same = (actual: unknown) => {
    const mismatch = findSubsetMismatch(actual, want);
    return mismatch ? [mismatch] : [];
  };
  switch (testCase.action) {
    case 'create_a2ui_part': {
      // Without a version the official SDKs write v0.8's part (their default version).
      const part = createA2uiDataPart(args.data, { version: token(args.version ?? '0.8') });
      return same({ mimeType: partMimeType(part) });
    }
    case 'is_a2ui_part':
      return same(isA2uiMimeType(args.mimeType));
    case 'get_extension': {
      const extension = a2uiAgentExtension(String(args.version), {
        supportedCatalogIds: args.supportedCatalogIds as string[] | undefined,
        acceptsInlineCatalogs: args.acceptsInlineCatalogs === true,
      });
      return same({ uri: extension.uri, params: extension.params });
    }
    case 'try_activate_extension':
      return same((await activated(args.uris as string[])) !== null);
    case 'try_activate': {
      const advertised = (args.advertised as string[]).map(
        (uri) => a2uiVersionOfExtensionUri(uri)!,
      );
      const uri = await activated(args.requested as string[], advertised);
      const version = uri === null ? undefined : a2uiVersionOfExtensionUri(uri);
      return same({ activated: uri, ...(version ? { version: version.slice(1) } : {}) });
    }
    case 'select_newest': {
      const advertised = (args.advertised as string[])
        .map((uri) => a2uiVersionOfExtensionUri(uri)!)
        .sort((a, b) => compareWireVersions(b, a));
      const requested = (args.requested as string[]).map((uri) => a2uiVersionOfExtensionUri(uri)!);
      return same({
        newest: a2uiExtensionUriOf(negotiateWireVersions(requested, advertised).version),
      });
    }
    case 'handle_rpc': {
      const parts = await partsOfRunnerOutput(String(args.runnerOutput));
      return same({ parts });
    }
    default:
      return [`no handler for ${testCase.action}`];
  }
}

describe('official conformance: extensions', () => {
  it('loads both extension files', () => {
    expect(new Set(cases.map((c) => c.file))).toEqual(
      new Set(['extensions/a2a/a2a_integration.yaml', 'extensions/adk/adk_extensions.yaml']),
    );
    expect(A2UI_CLOSE_TAG).toBe('</a2ui-json>');
  });

  for (const located of cases) {
    const skip = located.file.startsWith('extensions/adk/')
      ? NOT_APPLICABLE_CASES[located.testCase.name]
      : undefined;
    if (skip) {
      it.skip(`${located.file} › ${located.testCase.name}: not applicable (${skip.reason})`, () => {});
      continue;
    }
    it(`${located.file} › ${located.testCase.name}`, async () => {
      expect(await run(located)).toEqual([]);
    });
  }
});
