/**
 * The official A2UI v0.9 example streams copied into `./examples/` (Apache-2.0, Google LLC; see
 * `examples/NOTICE.md`), read once from disk.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One example in the sample-file format `{name, description, messages}`, plus where it came from. */
export interface ExampleStream {
  /** File name, unique across catalogs, e.g. `09_login-form.json`. */
  readonly file: string;
  readonly catalog: 'basic' | 'minimal';
  readonly name: string;
  readonly description: string;
  readonly messages: readonly unknown[];
}

const EXAMPLES_DIR = fileURLToPath(new URL('./examples/', import.meta.url));

let cache: readonly ExampleStream[] | undefined;

/** Every example stream, basic catalog first, each folder in file-name order. */
export function loadExampleStreams(): readonly ExampleStream[] {
  if (cache) return cache;
  const result: ExampleStream[] = [];
  for (const catalog of ['basic', 'minimal'] as const) {
    const dir = `${EXAMPLES_DIR}${catalog}/`;
    const files = readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    for (const file of files) {
      const sample = JSON.parse(readFileSync(dir + file, 'utf8')) as { name: string; description: string; messages: unknown[] };
      result.push({ file, catalog, name: sample.name, description: sample.description, messages: sample.messages });
    }
  }
  cache = result;
  return result;
}
