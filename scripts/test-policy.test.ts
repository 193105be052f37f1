/**
 * The test suite's own rules, so that it passes on a busy machine: one timeout policy for every
 * vitest project, no assertion on how long something took, `pnpm --filter <pkg> test` in every
 * package, typecheck and build bounded by the core count; and every package installable from its
 * tarball, with a README test.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEST_TIMEOUT_MS } from '../vitest.shared.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const projects = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group)).map((name) => join(group, name)),
);
const readJson = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((entry) => {
    const path = join(dir, entry);
    if (entry === 'node_modules' || entry === 'dist' || entry === 'artifacts') return [];
    if (statSync(join(root, path)).isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry) ? [path] : [];
  });
}

/**
 * Files of `packages/core/src` whose own timeouts predate this rule and that another branch is
 * rewriting: `basic-functions.test.ts` (a linear-time regex check) and `csp.browser.test.ts`.
 */
const TIMEOUT_EXCEPTIONS = [
  'packages/core/src/functions/basic-functions.test.ts',
  'packages/core/src/csp.browser.test.ts',
];

describe('one timeout policy', () => {
  const configs = [
    ...projects.flatMap((project) =>
      readdirSync(join(root, project))
        .filter((file) => /^vitest(\.\w+)?\.config\.ts$/.test(file))
        .map((file) => join(project, file)),
    ),
    'scripts/vitest.config.ts',
  ];

  it.each(configs)('%s uses the shared timeouts', async (config) => {
    const { default: options } = (await import(join(root, config))) as {
      default: { test: Record<string, unknown> & { expect?: { poll?: { timeout?: number } } } };
    };
    expect(options.test).toMatchObject({
      testTimeout: TEST_TIMEOUT_MS,
      hookTimeout: TEST_TIMEOUT_MS,
      expect: { poll: { timeout: TEST_TIMEOUT_MS } },
    });
  });

  it('no test shortens it, and none asserts a duration', () => {
    const offences: string[] = [];
    for (const project of [...projects, 'scripts']) {
      for (const file of testFiles(project)) {
        const text = readFileSync(join(root, file), 'utf8');
        const durations = text.match(
          /expect\(\s*\w*(?:Ms|elapsed|Elapsed|duration|Duration|took)\w*\s*\)\.toBeLessThan/g,
        );
        if (durations) offences.push(`${file}: asserts a duration (${durations[0]})`);
        if (TIMEOUT_EXCEPTIONS.includes(file)) continue;
        const timeouts = text.match(/^\s*\}, [1-9][\d_]{3,}\);$|[{,]\s*timeout: \d/gm);
        if (timeouts) offences.push(`${file}: its own timeout (${timeouts[0]!.trim()})`);
      }
    }
    expect(offences).toEqual([]);
  });
});

describe('every package and app', () => {
  it.each(projects)('%s: `pnpm --filter <it> test` runs its own vitest project', (project) => {
    expect(readJson(join(project, 'package.json')).scripts?.test).toBe('vitest run');
    expect(existsSync(join(root, project, 'vitest.config.ts'))).toBe(true);
  });

  it.each(projects.filter((project) => project.startsWith('packages/')))(
    '%s has a README test',
    (project) => {
      expect(testFiles(project).map((file) => relative(project, file))).toContainEqual(
        expect.stringMatching(/(^|\/)readme\.test\.ts$/),
      );
    },
  );
});

describe('the root scripts', () => {
  it('bound typecheck and build by the core count', () => {
    const { scripts } = readJson('package.json');
    expect(scripts.typecheck).toContain('turbo run typecheck --concurrency=100%');
    expect(scripts.build).toContain('turbo run build --concurrency=100%');
  });
});

describe('packed manifests', () => {
  const published = projects.filter(
    (project) =>
      project.startsWith('packages/') && !readJson(join(project, 'package.json')).private,
  );

  it.each(published)(
    '%s: its tarball exports only what it holds, without the source condition',
    (project) => {
      const manifest = readJson(join(project, 'package.json'));
      const withoutSource = Object.fromEntries(
        Object.entries(manifest.exports as Record<string, string | Record<string, string>>).map(
          ([key, target]) => [
            key,
            typeof target === 'string'
              ? target
              : Object.fromEntries(
                  Object.entries(target).filter(([condition]) => condition !== '@a2ui-ts/source'),
                ),
          ],
        ),
      );
      expect(manifest.publishConfig?.exports).toEqual(withoutSource);
      const targets = Object.values(withoutSource).flatMap((target) =>
        typeof target === 'string' ? [target] : Object.values(target),
      );
      for (const target of targets) {
        const top = target.replace(/^\.\//, '').split('/')[0]!;
        expect(target === './package.json' || manifest.files.includes(top), target).toBe(true);
      }
      expect(manifest.files).toContain('README.md');
    },
  );
});
