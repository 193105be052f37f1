/**
 * The official v0.9 schema test cases and example streams (digest §15), from the verbatim copies in
 * `src/testing/fixtures/` (Apache-2.0, Google LLC; see its NOTICE.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BASIC_CATALOG_ID, MINIMAL_CATALOG_ID } from '../protocol/constants.js';
import { parseJsonLines, toMessageList } from './message-list.js';
import { validateClientMessage, validateServerMessage } from './validate-messages.js';

const FIXTURES = fileURLToPath(new URL('../testing/fixtures/', import.meta.url));
const TEST_CASES = `${FIXTURES}test_cases/`;

interface TestSuite {
  schema: 'server_to_client.json' | 'client_to_server.json';
  tests: Array<{ description: string; valid: boolean; data: unknown }>;
}

const suiteFiles = readdirSync(TEST_CASES).filter((name) => name.endsWith('.json'));

describe('official schema test cases', () => {
  it('finds all nine case files', () => {
    expect(suiteFiles.length).toBe(8);
    expect(readdirSync(TEST_CASES)).toContain('contact_form_example.jsonl');
  });

  for (const file of suiteFiles) {
    const suite = JSON.parse(readFileSync(TEST_CASES + file, 'utf8')) as TestSuite;
    describe(file, () => {
      for (const testCase of suite.tests) {
        it(`${testCase.valid ? 'accepts' : 'rejects'}: ${testCase.description}`, () => {
          const issues =
            suite.schema === 'client_to_server.json'
              ? validateClientMessage(testCase.data)
              : validateServerMessage(testCase.data);
          if (testCase.valid) {
            expect(issues).toEqual([]);
          } else {
            expect(issues.length).toBeGreaterThan(0);
            for (const issue of issues) {
              expect(issue.path === '' || issue.path.startsWith('/')).toBe(true);
              expect(issue.message).toMatch(/\.$/);
            }
          }
        });
      }
    });
  }

  it('accepts every line of contact_form_example.jsonl', () => {
    const lines = parseJsonLines(readFileSync(`${TEST_CASES}contact_form_example.jsonl`, 'utf8'));
    expect(lines).toHaveLength(4);
    for (const { value, error } of lines) {
      expect(error).toBeUndefined();
      expect(validateServerMessage(value)).toEqual([]);
    }
  });
});

describe('official example streams', () => {
  const catalogs = [
    ['basic', BASIC_CATALOG_ID],
    ['minimal', MINIMAL_CATALOG_ID],
  ] as const;
  for (const [folder, catalogId] of catalogs) {
    const directory = `${FIXTURES}${folder}/`;
    for (const file of readdirSync(directory).filter((name) => name.endsWith('.json'))) {
      it(`${folder}/${file}: every message validates against the ${folder} catalog`, () => {
        const messages = toMessageList(JSON.parse(readFileSync(directory + file, 'utf8')));
        expect(messages.length).toBeGreaterThan(0);
        for (const [index, message] of messages.entries()) {
          expect({ index, issues: validateServerMessage(message, { catalogId }) }).toEqual({
            index,
            issues: [],
          });
        }
      });
    }
  }

  it('rejects a basic-only component under the minimal catalog', () => {
    const message = {
      version: 'v0.9',
      updateComponents: {
        surfaceId: 's',
        components: [{ id: 'root', component: 'Slider', value: 1, max: 5 }],
      },
    };
    expect(validateServerMessage(message, { catalogId: BASIC_CATALOG_ID })).toEqual([]);
    const [issue] = validateServerMessage(message, { catalogId: MINIMAL_CATALOG_ID });
    expect(issue?.path).toBe('/updateComponents/components/0/component');
    expect(issue?.message).toContain('Unknown component type "Slider"');
  });
});
