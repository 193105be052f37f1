/**
 * The Node part of the conformance runner: reads the official suite's YAML files (the verbatim
 * copy in `src/testing/fixtures/conformance/`), checks each against the suite's own
 * `conformance_schema.json`, and gives the runner file access for the catalogs and data its cases
 * name.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { A2uiError } from '../../errors/a2ui-error.js';
import { createA2uiAjv } from '../../validation/create-ajv.js';
import type { ConformanceContext } from '../conformance/case-catalogs.js';
import {
  type ConformanceCase,
  type LocatedConformanceCase,
  resolveCaseVersion,
} from '../conformance/conformance-case.js';

/** The suite copy shipped with core's sources. */
export const CONFORMANCE_SUITE_ROOT = fileURLToPath(
  new URL('../fixtures/conformance/', import.meta.url),
);

/** Options of {@link loadConformanceSuite}. */
export interface LoadConformanceSuiteOptions {
  /** The suite root. @default {@link CONFORMANCE_SUITE_ROOT} */
  root?: string;
  /** Folders of the root to read, recursively. @default ['core', 'agent'] */
  folders?: readonly string[];
  /**
   * Keep only cases whose `file::name` contains this text (case-insensitive), or matches it as a
   * regular expression when it is written `/…/`. @default every case
   */
  filter?: string;
}

/**
 * Every case of the suite's YAML files under `folders`, in file then case order.
 *
 * @param options - see {@link LoadConformanceSuiteOptions}
 * @returns the cases, each with its file (relative to the root, `/`-separated) and version
 * @throws A2uiError `VALIDATION_FAILED` when a file is not YAML or breaks `conformance_schema.json`
 */
export function loadConformanceSuite(
  options: LoadConformanceSuiteOptions = {},
): LocatedConformanceCase[] {
  const root = options.root ?? CONFORMANCE_SUITE_ROOT;
  const validate = createA2uiAjv().compile(
    JSON.parse(readFileSync(join(root, 'conformance_schema.json'), 'utf8')),
  );
  const keep = caseFilter(options.filter);
  const cases: LocatedConformanceCase[] = [];
  for (const folder of options.folders ?? ['core', 'agent']) {
    for (const path of yamlFiles(join(root, folder))) {
      const file = relative(root, path).split(sep).join('/');
      let document: unknown;
      try {
        document = parse(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new A2uiError('VALIDATION_FAILED', `${file} is not YAML.`, { cause: error });
      }
      if (!validate(document)) {
        const first = validate.errors?.[0];
        throw new A2uiError(
          'VALIDATION_FAILED',
          `${file} breaks conformance_schema.json at ${first?.instancePath || '/'}: ${first?.message ?? 'invalid'}.`,
        );
      }
      for (const testCase of document as ConformanceCase[]) {
        if (!keep(`${file}::${testCase.name}`)) continue;
        cases.push({ file, testCase, version: resolveCaseVersion(testCase) });
      }
    }
  }
  return cases;
}

/**
 * File access for the runner: paths a case names, relative to the suite root.
 *
 * @param root - the suite root @default {@link CONFORMANCE_SUITE_ROOT}
 */
export function createConformanceContext(root = CONFORMANCE_SUITE_ROOT): ConformanceContext {
  return {
    readJson: (path) => JSON.parse(readFileSync(join(root, path), 'utf8')),
  };
}

function caseFilter(filter: string | undefined): (id: string) => boolean {
  if (!filter) return () => true;
  const regex = /^\/(.+)\/$/.exec(filter);
  if (regex) {
    const pattern = new RegExp(regex[1]!, 'i');
    return (id) => pattern.test(id);
  }
  const text = filter.toLowerCase();
  return (id) => id.toLowerCase().includes(text);
}

function yamlFiles(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...yamlFiles(path));
    else if (/\.ya?ml$/.test(name)) found.push(path);
  }
  return found;
}
