import { describe, expect, it } from 'vitest';
import { BASIC_CATALOG_ID, MINIMAL_CATALOG_ID } from '../protocol/constants.js';
import {
  validateClientCapabilities,
  validateClientDataModel,
  validateClientMessage,
  validateServerCapabilities,
  validateServerMessage,
} from './validate-messages.js';
import type { ValidationIssue } from './validation-issue.js';
import { createValidatorRegistry } from './validator-registry.js';

const components = (...list: unknown[]) => ({
  version: 'v0.9',
  updateComponents: { surfaceId: 's1', components: list },
});

/** Asserts exact paths, and messages by substring. */
function expectIssues(
  issues: ValidationIssue[],
  expected: Array<[path: string, fragment: string]>,
): void {
  expect(issues.map((issue) => issue.path)).toEqual(expected.map(([path]) => path));
  for (const [index, [, fragment]] of expected.entries())
    expect(issues[index]!.message).toContain(fragment);
}

describe('validateServerMessage', () => {
  it('accepts each of the four messages', () => {
    expect(
      validateServerMessage({
        version: 'v0.9',
        createSurface: {
          surfaceId: 's1',
          catalogId: BASIC_CATALOG_ID,
          theme: { primaryColor: '#00BFFF' },
          sendDataModel: true,
        },
      }),
    ).toEqual([]);
    expect(
      validateServerMessage(components({ id: 'root', component: 'Column', children: ['a'] })),
    ).toEqual([]);
    expect(
      validateServerMessage({
        version: 'v0.9',
        updateDataModel: { surfaceId: 's1', path: '/a', value: { b: [1, null] } },
      }),
    ).toEqual([]);
    expect(
      validateServerMessage({ version: 'v0.9', updateDataModel: { surfaceId: 's1', path: '/a' } }),
    ).toEqual([]);
    expect(validateServerMessage({ version: 'v0.9', deleteSurface: { surfaceId: 's1' } })).toEqual(
      [],
    );
  });

  it('names the component property, not anyComponent noise', () => {
    expect(validateServerMessage(components({ id: 'root', component: 'Text', text: 123 }))).toEqual(
      [
        {
          path: '/updateComponents/components/0/text',
          keyword: 'type',
          message:
            'Expected a string, a {"path"} binding or a {"call"} function call, got integer.',
        },
      ],
    );
  });

  it('reports each bad component at its own index', () => {
    const issues = validateServerMessage(
      components(
        { id: 'root', component: 'Column', children: ['a', 'b'] },
        { id: 'a', component: 'Image', url: 42 },
        { id: 'b', component: 'Slider', value: { path: '/v' }, max: 'ten' },
        { id: 'c', component: 'Fancy' },
      ),
    );
    expectIssues(issues, [
      [
        '/updateComponents/components/1/url',
        'Expected a string, a {"path"} binding or a {"call"} function call, got integer.',
      ],
      ['/updateComponents/components/2/max', 'Expected a number, got string.'],
      [
        '/updateComponents/components/3/component',
        'Unknown component type "Fancy". Available component types: Text, Image',
      ],
    ]);
  });

  it('explains unknown and missing properties with what is allowed', () => {
    expectIssues(
      validateServerMessage(
        components({
          id: 'b',
          component: 'Button',
          child: 't',
          action: { event: { name: 'go' } },
          enabled: false,
        }),
      ),
      [
        [
          '/updateComponents/components/0/enabled',
          'Unknown property "enabled" on component "Button". Allowed properties: id, accessibility, weight, checks, component, child, variant, action.',
        ],
      ],
    );
    expectIssues(validateServerMessage(components({ id: 'b', component: 'Button', child: 't' })), [
      [
        '/updateComponents/components/0/action',
        'Missing required property "action" on component "Button".',
      ],
    ]);
    expectIssues(validateServerMessage(components({ component: 'Divider' })), [
      ['/updateComponents/components/0/id', 'Missing required property "id"'],
    ]);
  });

  it('picks the intended branch of actions, child lists and function calls', () => {
    const button = (action: unknown) =>
      components({ id: 'b', component: 'Button', child: 't', action });
    expectIssues(validateServerMessage(button('submit')), [
      [
        '/updateComponents/components/0/action',
        'Expected an {"event": {"name"}} action or a {"functionCall"} action, got string.',
      ],
    ]);
    expectIssues(
      validateServerMessage(
        button({
          event: { name: 'go', context: { when: { call: 'formatDate', args: { value: 1 } } } },
        }),
      ),
      [
        [
          '/updateComponents/components/0/action/event/context/when/args/format',
          'Missing required property "format"',
        ],
      ],
    );
    expectIssues(
      validateServerMessage(
        button({ functionCall: { call: 'openUrl', args: { url: 'javascript alert' } } }),
      ),
      [
        [
          '/updateComponents/components/0/action/functionCall/args/url',
          'Expected a string in "uri" format',
        ],
      ],
    );
    expectIssues(
      validateServerMessage(
        components({ id: 'r', component: 'Row', children: { path: '/items' } }),
      ),
      [
        [
          '/updateComponents/components/0/children/componentId',
          'Missing required property "componentId".',
        ],
      ],
    );
    expectIssues(
      validateServerMessage(components({ id: 'r', component: 'List', children: 'a,b' })),
      [
        [
          '/updateComponents/components/0/children',
          'Expected an array of component ids or a {"componentId", "path"} template, got string.',
        ],
      ],
    );
    expectIssues(
      validateServerMessage(
        components({ id: 't', component: 'Text', text: { call: 'upper', args: {} } }),
      ),
      [
        [
          '/updateComponents/components/0/text/call',
          'Unknown function "upper". Available functions: required, regex, length',
        ],
      ],
    );
    expectIssues(
      validateServerMessage(
        components({ id: 't', component: 'Text', text: { path: '/name', default: 'x' } }),
      ),
      [
        [
          '/updateComponents/components/0/text/default',
          'Unknown property "default". Allowed properties: path.',
        ],
      ],
    );
    const lengthCheck = components({
      id: 'f',
      component: 'TextField',
      label: 'Name',
      checks: [
        { condition: { call: 'length', args: { value: { path: '/n' } } }, message: 'Too short' },
      ],
    });
    expectIssues(validateServerMessage(lengthCheck), [
      [
        '/updateComponents/components/0/checks/0/condition/args',
        'expected at least one of "min" or "max"',
      ],
    ]);
  });

  it('reports version, envelope and payload problems precisely', () => {
    expectIssues(validateServerMessage({ version: 'v0.8', deleteSurface: { surfaceId: 's1' } }), [
      ['/version', 'Unsupported version "v0.8": this library speaks A2UI "v0.9" only'],
    ]);
    expectIssues(validateServerMessage({ deleteSurface: { surfaceId: 's1' } }), [
      ['/version', 'Missing required property "version"'],
    ]);
    expectIssues(validateServerMessage({ surfaceUpdate: { surfaceId: 's1', components: [] } }), [
      ['/version', 'Missing required property "version"'],
      ['/surfaceUpdate', '"surfaceUpdate" is an A2UI v0.8 message; v0.9 uses "updateComponents"'],
    ]);
    expectIssues(validateServerMessage({ version: 'v0.9', updateSurface: {} }), [
      ['/updateSurface', 'Unknown message type "updateSurface"'],
    ]);
    expectIssues(
      validateServerMessage({
        version: 'v0.9',
        createSurface: { surfaceId: 'a', catalogId: BASIC_CATALOG_ID },
        deleteSurface: { surfaceId: 'a' },
      }),
      [
        [
          '/deleteSurface',
          'found "createSurface" and "deleteSurface". Send them as separate messages.',
        ],
      ],
    );
    expectIssues(
      validateServerMessage({ version: 'v0.9', deleteSurface: { surfaceId: 's1' }, id: 7 }),
      [['/id', 'Unknown property "id" on a deleteSurface message']],
    );
    expectIssues(
      validateServerMessage({
        version: 'v0.9',
        updateComponents: { surfaceId: 's1', components: [] },
      }),
      [['/updateComponents/components', 'Expected at least 1 item, got 0.']],
    );
    expectIssues(
      validateServerMessage({ version: 'v0.9', updateDataModel: { surfaceId: 1, op: 'replace' } }),
      [
        ['/updateDataModel/surfaceId', 'Expected a string, got integer.'],
        [
          '/updateDataModel/op',
          'Unknown property "op". Allowed properties: surfaceId, path, value.',
        ],
      ],
    );
    expectIssues(validateServerMessage([{ version: 'v0.9' }]), [
      ['', 'Expected an A2UI server message (a JSON object'],
    ]);
  });

  it('chooses the catalog from the option, then createSurface.catalogId, then basic', () => {
    const slider = components({ id: 'root', component: 'Slider', value: 1, max: 5 });
    expect(validateServerMessage(slider)).toEqual([]);
    expect(validateServerMessage(slider, { catalogId: MINIMAL_CATALOG_ID })[0]?.keyword).toBe(
      'component',
    );
    const minimalTheme = {
      version: 'v0.9',
      createSurface: {
        surfaceId: 's',
        catalogId: MINIMAL_CATALOG_ID,
        theme: { primaryColor: 'red' },
      },
    };
    expectIssues(validateServerMessage(minimalTheme), [
      ['/createSurface/theme/primaryColor', 'Expected a string matching /^#[0-9a-fA-F]{6}$/'],
    ]);
    // Without a registered catalog only the catalog-independent shape is checked.
    const foreign = {
      version: 'v0.9',
      createSurface: { surfaceId: 's', catalogId: 'urn:unknown', theme: { primaryColor: 'red' } },
    };
    expect(validateServerMessage(foreign)).toEqual([]);
    expectIssues(
      validateServerMessage({
        ...foreign,
        createSurface: { ...foreign.createSurface, surfaceId: 3 },
      }),
      [['/createSurface/surfaceId', 'Expected a string, got integer.']],
    );
    expect(() => validateServerMessage(slider, { catalogId: 'urn:unknown' })).toThrowError(
      /No validator is registered/,
    );
    const empty = createValidatorRegistry({ builtins: false });
    expect(validateServerMessage(slider, { registry: empty })).toEqual([]);
  });

  it('stops at maxDepth before schema validation', () => {
    let value: unknown = 'leaf';
    for (let level = 0; level < 10; level++) value = { nested: value };
    const message = { version: 'v0.9', updateDataModel: { surfaceId: 's1', value } };
    expect(validateServerMessage(message)).toEqual([]);
    const [issue] = validateServerMessage(message, { maxDepth: 5 });
    expect(issue?.path).toBe('/updateDataModel/value/nested/nested/nested');
    expect(issue?.keyword).toBe('maxDepth');
    const cyclic: Record<string, unknown> = { surfaceId: 's1' };
    cyclic.value = cyclic;
    expect(validateServerMessage({ version: 'v0.9', updateDataModel: cyclic })[0]?.keyword).toBe(
      'maxDepth',
    );
  });
});

describe('validateClientMessage', () => {
  const action = {
    name: 'submit',
    surfaceId: 's1',
    sourceComponentId: 'b',
    timestamp: '2026-01-15T12:00:00Z',
    context: { a: 1 },
  };

  it('accepts action and both error forms', () => {
    expect(validateClientMessage({ version: 'v0.9', action })).toEqual([]);
    expect(
      validateClientMessage({
        version: 'v0.9',
        error: { code: 'VALIDATION_FAILED', surfaceId: 's1', path: '/x', message: 'Bad.' },
      }),
    ).toEqual([]);
    expect(
      validateClientMessage({
        version: 'v0.9',
        error: { code: 'EXPRESSION_ERROR', surfaceId: 's1', message: 'Bad.', expression: 'x' },
      }),
    ).toEqual([]);
  });

  it('reports precise issues', () => {
    expectIssues(
      validateClientMessage({ version: 'v0.9', action: { ...action, timestamp: 'now' } }),
      [['/action/timestamp', 'Expected a string in "date-time" format, got "now".']],
    );
    expectIssues(
      validateClientMessage({ version: 'v0.9', action: { ...action, context: undefined } }),
      [['/action/context', 'Missing required property "context".']],
    );
    expectIssues(
      validateClientMessage({
        version: 'v0.9',
        error: { code: 'VALIDATION_FAILED', surfaceId: 's1', message: 'Bad.' },
      }),
      [['/error/path', 'Missing required property "path".']],
    );
    expectIssues(validateClientMessage({ version: 'v0.9', userAction: action }), [
      ['/userAction', 'v0.9 uses "action"'],
    ]);
    expectIssues(validateClientMessage({ version: 'v0.9', updateDataModel: { surfaceId: 's1' } }), [
      [
        '/updateDataModel',
        'Unknown message type "updateDataModel". A client message carries exactly one of "action" or "error".',
      ],
    ]);
    expectIssues(validateClientMessage({ version: '0.9', action }), [
      ['/version', 'Unsupported version "0.9"'],
    ]);
  });
});

describe('metadata validators', () => {
  it('validate client capabilities', () => {
    expect(
      validateClientCapabilities({ 'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID] } }),
    ).toEqual([]);
    expectIssues(validateClientCapabilities({ supportedCatalogIds: [BASIC_CATALOG_ID] }), [
      ['/v0.9', 'Missing required property "v0.9".'],
    ]);
    expectIssues(
      validateClientCapabilities({ 'v0.9': { supportedCatalogIds: BASIC_CATALOG_ID } }),
      [['/v0.9/supportedCatalogIds', 'Expected an array of strings, got string.']],
    );
    expectIssues(
      validateClientCapabilities({
        'v0.9': {
          supportedCatalogIds: [],
          inlineCatalogs: [
            { catalogId: 'c', functions: [{ name: 'f', parameters: {}, returnType: 'text' }] },
          ],
        },
      }),
      [['/v0.9/inlineCatalogs/0/functions/0/returnType', 'Expected one of "string", "number"']],
    );
  });

  it('validate the client data model', () => {
    expect(validateClientDataModel({ version: 'v0.9', surfaces: { s1: { name: 'Ada' } } })).toEqual(
      [],
    );
    expectIssues(validateClientDataModel({ version: 'v0.9', surfaces: { s1: [1] } }), [
      ['/surfaces/s1', 'Expected an object, got array.'],
    ]);
    expectIssues(validateClientDataModel({ surfaces: {} }), [
      ['/version', 'Missing required property "version".'],
    ]);
  });

  it('bound the depth of each surface data model as DataModel counts it', () => {
    const nested = (levels: number): unknown => {
      let value: unknown = {};
      for (let level = 1; level < levels; level++) value = { a: value };
      return value;
    };
    const metadata = (levels: number) => ({ version: 'v0.9', surfaces: { s1: nested(levels) } });
    expect(validateClientDataModel(metadata(64))).toEqual([]);
    expect(validateClientDataModel(metadata(65))[0]).toMatchObject({ keyword: 'maxDepth' });
    expect(validateClientDataModel(metadata(4), { maxDepth: 4 })).toEqual([]);
    expect(validateClientDataModel(metadata(5), { maxDepth: 4 })[0]).toMatchObject({
      path: '/surfaces/s1/a/a/a/a',
      keyword: 'maxDepth',
    });
  });

  it('validate server capabilities', () => {
    expect(
      validateServerCapabilities({
        'v0.9': { supportedCatalogIds: [BASIC_CATALOG_ID], acceptsInlineCatalogs: true },
      }),
    ).toEqual([]);
    expectIssues(validateServerCapabilities({ 'v0.9': { acceptsInlineCatalogs: 'yes' } }), [
      ['/v0.9/acceptsInlineCatalogs', 'Expected a boolean, got string.'],
    ]);
  });
});
