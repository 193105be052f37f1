/**
 * The packages work outside this repository, from their `pnpm pack` tarballs alone: core, a
 * transport (SSE + JSON-RPC), the React renderer and the CLI are built, packed and installed with
 * npm into a fresh folder outside the workspace (their third-party dependencies from the npm
 * registry), and there the quick starts of their READMEs run as printed. Node runs them with the
 * `@a2ui-ts/source` condition on, as the READMEs inside the repository say: a packed manifest that
 * still pointed that condition at `src/` (which a tarball does not hold) would fail here.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  readReadmeBlocks,
  runReadmeBlock,
  type StartedReadmeBlock,
  startReadmeBlock,
} from '@a2ui-ts/core/testing/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const PACKED = ['core', 'transport-sse-jsonrpc', 'react-renderer', 'cli'];

const rootReadme = readReadmeBlocks(new URL('../README.md', import.meta.url));
const readme = (name: string) =>
  readReadmeBlocks(new URL(`../packages/${name}/README.md`, import.meta.url));

const scratch = mkdtempSync(join(tmpdir(), 'a2ui-packed-'));
const tarballs = join(scratch, 'tarballs');
const project = join(scratch, 'project');
let server: StartedReadmeBlock | undefined;

// One hook per step, each within the shared timeout however slow the machine.
for (const name of PACKED) {
  beforeAll(() => run('pnpm', ['run', 'build'], { cwd: join(root, 'packages', name) }));
}
beforeAll(async () => {
  const packed = await runReadmeBlock(rootReadme.block('pack'), {
    cwd: root,
    fileName: 'pack.sh',
    replace: [['/tmp/a2ui', tarballs]],
  });
  expect(packed, packed.stderr).toMatchObject({ exitCode: 0 });
  expect(readdirSync(tarballs).sort()).toEqual(
    PACKED.map((name) => `a2ui-ts-${name}-0.1.0.tgz`).sort(),
  );
});
beforeAll(async () => {
  mkdirSync(project);
  // `tsx` too, to run the quick starts' TypeScript (`npx tsx` would fetch it the same way).
  const installed = await runReadmeBlock(`${rootReadme.block('install').trimEnd()} tsx\n`, {
    cwd: project,
    fileName: 'install.sh',
    replace: [['/tmp/a2ui', tarballs]],
  });
  expect(installed, installed.stderr).toMatchObject({ exitCode: 0 });
});
afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('installed from the tarballs, outside the workspace', () => {
  it("runs core's quick start", async () => {
    const result = await runReadmeBlock(readme('core').block('quick-start'), {
      cwd: project,
      fileName: 'quick-start.mts',
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: "Hello Ada\ngreet { name: 'Ada' }\n" });
  });

  it("runs the SSE + JSON-RPC transport's quick-start server and client", async () => {
    const blocks = readme('transport-sse-jsonrpc');
    server = await startReadmeBlock(blocks.block('server'), {
      cwd: project,
      fileName: 'server.mts',
      env: { PORT: '0' },
      ready: /^A2UI agent on (http:\/\/\S+)$/,
    });
    const result = await runReadmeBlock(blocks.block('client'), {
      cwd: project,
      fileName: 'client.mts',
      replace: [['http://127.0.0.1:8787/a2ui', server.ready[1]!]],
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("the agent answered: { last: 'submit' }\n");
    await server.stop();
  });

  it('renders a surface with the React renderer, and ships its stylesheet', async () => {
    const script = [
      "import { A2uiClient, BASIC_CATALOG_ID } from '@a2ui-ts/core';",
      "import { A2UIRenderer } from '@a2ui-ts/react-renderer';",
      "import { createElement } from 'react';",
      "import { renderToString } from 'react-dom/server';",
      'const client = new A2uiClient();',
      'client.process([',
      "  { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: BASIC_CATALOG_ID } },",
      "  { version: 'v0.9', updateComponents: { surfaceId: 's', components: [{ id: 'root', component: 'Text', text: 'Packed and rendered' }] } },",
      ']);',
      'console.log(renderToString(createElement(A2UIRenderer, { client })));',
      "console.log(import.meta.resolve('@a2ui-ts/react-renderer/styles.css'));",
    ].join('\n');
    const result = await runReadmeBlock(script, { cwd: project, fileName: 'render.mts' });
    expect(result.exitCode).toBe(0);
    const [html, stylesheet] = result.stdout.trim().split('\n');
    expect(html).toContain('Packed and rendered');
    expect(stylesheet).toMatch(/node_modules\/@a2ui-ts\/react-renderer\/dist\/styles\.css$/);
  });

  it("runs the CLI's a2ui binary", async () => {
    copyFileSync(
      join(root, 'packages/core/src/testing/fixtures/basic/09_login-form.json'),
      join(project, 'login-form.json'),
    );
    const { stdout } = await run(
      join(project, 'node_modules/.bin/a2ui'),
      ['replay', 'login-form.json'],
      {
        cwd: project,
      },
    );
    const state = JSON.parse(stdout) as { surfaces: Record<string, unknown>; errors: unknown[] };
    expect(Object.keys(state.surfaces)).toHaveLength(1);
    expect(state.errors).toEqual([]);
    await expect(
      run(join(project, 'node_modules/.bin/a2ui'), ['validate', 'login-form.json'], {
        cwd: project,
      }),
    ).resolves.toMatchObject({ stdout: '' });
  });
});
