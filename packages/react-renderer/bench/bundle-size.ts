/**
 * `pnpm --filter @a2ui-ts/react-renderer bench:bundle-size`: what a minimal page that renders the
 * basic catalog ships, bundled by esbuild (minified, production React, code splitting), gzip —
 * @a2ui-ts/react-renderer + @a2ui-ts/core side by side with @a2ui/react + @a2ui/web_core, with the
 * same React. Each page creates a processor with the basic catalog, applies messages and renders
 * one surface. CSS is left out of both.
 *
 * "First surface" is what the page downloads before it can show a v0.9 basic-catalog surface of
 * valid messages: the entry, its static imports and the chunks core imports on that first need
 * (the basic catalog's validator). "All" adds every chunk loaded later, if ever (other protocol
 * versions' and catalogs' validators, failure wording, RE2 for `regex`, `marked` for the first
 * Text holding markdown).
 *
 * `INPUTS=20` also lists the 20 largest inputs of our first surface (esbuild's metafile: minified
 * bytes each contributes before compression), to see what to cut next.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

const PAGES = {
  '@a2ui-ts/react-renderer + @a2ui-ts/core': `
    import { createElement } from 'react';
    import { createRoot } from 'react-dom/client';
    import { A2uiClient } from '@a2ui-ts/core';
    import { A2UIRenderer } from '@a2ui-ts/react-renderer';
    const client = new A2uiClient();
    client.process(globalThis.messages);
    createRoot(document.getElementById('root')).render(createElement(A2UIRenderer, { client }));
  `,
  '@a2ui/react + @a2ui/web_core': `
    import { createElement } from 'react';
    import { createRoot } from 'react-dom/client';
    import { MessageProcessor } from '@a2ui/web_core/v0_9';
    import { A2uiSurface, basicCatalog } from '@a2ui/react/v0_9';
    const processor = new MessageProcessor([basicCatalog]);
    processor.processMessages(globalThis.messages);
    const surface = processor.model.surfacesMap.get('main');
    createRoot(document.getElementById('root')).render(createElement(A2uiSurface, { surface }));
  `,
  '@a2ui/react + @a2ui/web_core + @a2ui/markdown-it': `
    import { createElement } from 'react';
    import { createRoot } from 'react-dom/client';
    import { MessageProcessor } from '@a2ui/web_core/v0_9';
    import { A2uiSurface, basicCatalog, MarkdownContext } from '@a2ui/react/v0_9';
    import { renderMarkdown } from '@a2ui/markdown-it';
    const processor = new MessageProcessor([basicCatalog]);
    processor.processMessages(globalThis.messages);
    const surface = processor.model.surfacesMap.get('main');
    createRoot(document.getElementById('root')).render(
      createElement(MarkdownContext.Provider, { value: renderMarkdown },
        createElement(A2uiSurface, { surface })),
    );
  `,
} as const;

/** Chunks core imports before a valid v0.9 basic-catalog surface can show. */
const FIRST_SURFACE_CHUNK = /core\/src\/validation\/generated\/basic\.js$/;

interface Sizes {
  firstSurface: number;
  all: number;
  chunks: number;
  /** Inputs of the first-surface chunks with the minified bytes each contributes, largest first. */
  inputs: Array<[string, number]>;
}

async function measure(source: string): Promise<Sizes> {
  const result = await build({
    stdin: { contents: source, resolveDir: packageDir, loader: 'tsx' },
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    outdir: join(packageDir, 'bench/.bundle-size'),
    write: false,
    metafile: true,
    platform: 'browser',
    conditions: ['@a2ui-ts/source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.css': 'empty' },
    logLevel: 'error',
  });
  const metafile = result.metafile as Metafile;
  const gzipOf = new Map(
    result.outputFiles
      .filter((file) => file.path.endsWith('.js'))
      .map((file) => [
        file.path.slice(file.path.indexOf('bench/.bundle-size/')),
        gzipSync(file.contents).length,
      ]),
  );
  const outputs = Object.entries(metafile.outputs).filter(([path]) => path.endsWith('.js'));
  /** An output and its static imports, transitively. */
  const closure = (path: string, seen: Set<string>): Set<string> => {
    if (seen.has(path)) return seen;
    seen.add(path);
    for (const imported of metafile.outputs[path]?.imports ?? [])
      if (imported.kind === 'import-statement') closure(imported.path, seen);
    return seen;
  };
  const needed = new Set<string>();
  for (const [path, output] of outputs) {
    if (
      path.endsWith('stdin.js') ||
      Object.keys(output.inputs).some((input) => FIRST_SURFACE_CHUNK.test(input))
    )
      closure(path, needed);
  }
  const size = (paths: Iterable<string>) => {
    let total = 0;
    for (const path of paths)
      total += gzipOf.get(path.slice(path.indexOf('bench/.bundle-size/'))) ?? 0;
    return total;
  };
  const inputs: Array<[string, number]> = [];
  for (const path of needed)
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[path]?.inputs ?? {}))
      inputs.push([input.replace(/^.*node_modules\//, ''), bytesInOutput]);
  inputs.sort((a, b) => b[1] - a[1]);
  return {
    firstSurface: size(needed),
    all: size(outputs.map(([path]) => path)),
    chunks: outputs.length,
    inputs,
  };
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const rows: Array<[string, Sizes]> = [];
for (const [name, source] of Object.entries(PAGES)) rows.push([name, await measure(source)]);
const [ours] = rows[0]!;
console.log(`Minimal page rendering the basic catalog, esbuild (minified, production), gzip`);
console.log('| page | first surface | all chunks | chunks | first surface vs ours |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, sizes] of rows) {
  const ratio = rows[0]![1].firstSurface / sizes.firstSurface;
  console.log(
    `| ${name} | ${kB(sizes.firstSurface)} | ${kB(sizes.all)} | ${sizes.chunks} | ${name === ours ? '1' : `ours ÷ this = ${ratio.toFixed(2)}`} |`,
  );
}
const listed = Number(process.env.INPUTS ?? 0);
if (listed > 0) {
  console.log(`\nLargest inputs of our first surface (minified bytes, before gzip)`);
  for (const [input, bytes] of rows[0]![1].inputs.slice(0, listed))
    console.log(`${kB(bytes).padStart(9)}  ${input}`);
}
