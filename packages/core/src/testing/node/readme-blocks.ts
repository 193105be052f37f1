/**
 * README code blocks that run as printed (Node only: it reads files and starts processes). A block
 * is kept honest by marking it `<!-- readme-test: name -->` in the README and running it from a
 * test with {@link runReadmeBlock} (a script that ends), {@link startReadmeBlock} (a server that
 * keeps running), {@link runReadmeServerAndClient} (a quick start's server and the client that
 * talks to it) or {@link typecheckReadmeBlocks} (code that needs a browser). A block that imports
 * an `@a2ui-ts/*` package looks runnable to a reader, so it must be marked: {@link ReadmeBlocks.unmarked}
 * lists the ones that are not, for a test to expect none.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { markedCodeBlocks } from '../markdown-sections.js';

/** The marked blocks of one README. */
export interface ReadmeBlocks {
  /** The README's path, relative to the working directory (for messages). */
  readonly file: string;
  /** The names of the marked blocks, in document order. */
  readonly names: readonly string[];
  /**
   * The text of block `name`, as written (final line break included).
   * @throws Error naming the README and the block, when it has no such block
   */
  block(name: string): string;
  /**
   * The first line of every TypeScript / JavaScript block that imports an `@a2ui-ts/*` package
   * and carries no marker: a reader would run it, so a README test expects this to be empty.
   */
  readonly unmarked: readonly string[];
}

/** Where and how a README block runs. */
export interface ReadmeBlockOptions {
  /**
   * The folder the README says to run the block from, e.g.
   * `new URL('..', import.meta.url)` for the package's own folder. The block is saved in its
   * `artifacts/readme/` (gitignored; in a folder of its own per call, removed when it is done,
   * so that tests running at once never share a file), so its imports resolve exactly as from
   * that folder.
   */
  cwd: string | URL;
  /**
   * The file the block is saved as; its extension picks the runner: `.sh` runs in bash, anything
   * else in Node with `--conditions=@a2ui-ts/source --import tsx` (what the READMEs print).
   */
  fileName: string;
  /**
   * Text to replace before running, e.g. `[['port: 8787', 'port: 0']]`, so that a test never uses
   * a fixed port. Each `from` must occur in the block.
   * @default []
   */
  replace?: ReadonlyArray<readonly [from: string, to: string]>;
  /** Extra environment variables. @default {} */
  env?: Record<string, string>;
}

/** What a finished block printed. */
export interface ReadmeBlockResult {
  readonly stdout: string;
  readonly stderr: string;
  /** The exit code (`null` when a signal ended it). */
  readonly exitCode: number | null;
}

/** A block that keeps running (a server), started by {@link startReadmeBlock}. */
export interface StartedReadmeBlock {
  /** The match of `ready` against the first stdout line that matched it. */
  readonly ready: RegExpMatchArray;
  /** Everything it printed to stdout so far. */
  stdout(): string;
  /** Ends it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Node's arguments for a TypeScript script that imports workspace packages from source. */
export const README_NODE_ARGUMENTS = ['--conditions=@a2ui-ts/source', '--import', 'tsx'] as const;

const RUNNABLE_FENCE = /^```(?:ts|tsx|js|mjs|mts|javascript|typescript)\n([\s\S]*?)^```/gm;

/**
 * Reads the blocks of a README marked `<!-- {marker}: name -->`.
 *
 * @param file - the README, e.g. `new URL('../README.md', import.meta.url)`
 * @param marker - the comment that marks a block @default 'readme-test'
 *
 * @example
 * ```ts
 * const readme = readReadmeBlocks(new URL('../README.md', import.meta.url));
 * it('marks every runnable block', () => expect(readme.unmarked).toEqual([]));
 * ```
 */
export function readReadmeBlocks(file: URL, marker = 'readme-test'): ReadmeBlocks {
  const path = fileURLToPath(file);
  const name = relative(process.cwd(), path) || path;
  const markdown = readFileSync(path, 'utf8');
  const blocks = markedCodeBlocks(markdown, marker);
  const unmarked: string[] = [];
  for (const match of markdown.matchAll(RUNNABLE_FENCE)) {
    const before = markdown.slice(0, match.index).trimEnd();
    const isMarked = new RegExp(`<!-- ${marker}: \\S+ -->$`).test(before);
    if (!isMarked && /from '@a2ui-ts\//.test(match[1]!)) unmarked.push(match[1]!.split('\n')[0]!);
  }
  return {
    file: name,
    names: [...blocks.keys()],
    unmarked,
    block(blockName) {
      const text = blocks.get(blockName);
      if (text === undefined) throw new Error(`${name} has no ${marker} block "${blockName}".`);
      return text;
    },
  };
}

/** Saves `code` (after its replacements) in a new folder under `<cwd>/artifacts/readme/`. */
function saveBlock(
  code: string,
  options: ReadmeBlockOptions,
  into?: string,
): { cwd: string; dir: string; path: string } {
  const cwd = typeof options.cwd === 'string' ? options.cwd : fileURLToPath(options.cwd);
  let text = code;
  for (const [from, to] of options.replace ?? []) {
    if (!text.includes(from)) throw new Error(`The README block has no "${from}" to replace.`);
    text = text.replaceAll(from, to);
  }
  const dir = into ?? newScratchDir(cwd);
  const path = join(dir, options.fileName);
  writeFileSync(path, text);
  return { cwd, dir, path };
}

function newScratchDir(cwd: string | URL): string {
  const parent = join(typeof cwd === 'string' ? cwd : fileURLToPath(cwd), 'artifacts', 'readme');
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, 'block-'));
}

function commandFor(path: string): [string, string[]] {
  return extname(path) === '.sh'
    ? ['bash', [path]]
    : [process.execPath, [...README_NODE_ARGUMENTS, path]];
}

/**
 * Runs a README block to its end, as printed but for `replace`, from the folder the README names.
 * Never rejects for a failing block: the exit code and output are the caller's to assert.
 *
 * @example
 * ```ts
 * const result = await runReadmeBlock(readme.block('quick-start'), {
 *   cwd: new URL('..', import.meta.url),
 *   fileName: 'quick-start.mts',
 * });
 * expect(result).toMatchObject({ exitCode: 0, stdout: 'Hello Ada\n' });
 * ```
 */
export async function runReadmeBlock(
  code: string,
  options: ReadmeBlockOptions,
): Promise<ReadmeBlockResult> {
  const { cwd, dir, path } = saveBlock(code, options);
  const [command, args] = commandFor(path);
  try {
    return await new Promise((resolve) => {
      execFile(
        command,
        args,
        { cwd, env: { ...process.env, ...options.env }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const exitCode = error ? (typeof error.code === 'number' ? error.code : null) : 0;
          resolve({ stdout, stderr, exitCode });
        },
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts a README block that keeps running (a server) and resolves once a stdout line matches
 * `ready` — e.g. `/on (http:\/\/\S+)$/` for "listening on http://127.0.0.1:41234".
 *
 * @throws Error with its stderr, when it exits before printing such a line
 */
export async function startReadmeBlock(
  code: string,
  options: ReadmeBlockOptions & { ready: RegExp },
): Promise<StartedReadmeBlock> {
  const { cwd, dir, path } = saveBlock(code, options);
  const [command, args] = commandFor(path);
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      rmSync(dir, { recursive: true, force: true });
      resolve();
    }),
  );
  return await new Promise((resolve, reject) => {
    child.once('exit', (exitCode) =>
      reject(
        new Error(`${options.fileName} exited with ${exitCode} before it was ready:\n${stderr}`),
      ),
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      stdout += `${line}\n`;
      const ready = line.match(options.ready);
      if (!ready) return;
      resolve({
        ready,
        stdout: () => stdout,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill();
          await exited;
        },
      });
    });
  });
}

/** The quick-start pair of a README: a server block and a client block that talks to it. */
export interface ReadmeServerAndClientOptions {
  /** The folder the README says to run both blocks from; see {@link ReadmeBlockOptions.cwd}. */
  cwd: string | URL;
  /** The server block. */
  server: {
    /** Its marker name. @default 'server' */
    block?: string;
    /** @default 'server.mts' */
    fileName?: string;
    /**
     * Replacements that make it listen on port 0 (each must occur in the block), e.g.
     * `[['port: 8787 }', 'port: 0 }']]`; none for a block that takes its port from `env`.
     * @default []
     */
    replace?: ReadonlyArray<readonly [from: string, to: string]>;
    /**
     * Environment variables it runs with, over the test's own, e.g. `{ PORT: '0' }` for a block
     * that reads its port from `PORT`, so it runs exactly as printed.
     * @default {}
     */
    env?: Readonly<Record<string, string>>;
    /** Matches the line it prints once listening; group 1 is the URL the client is pointed at. */
    ready: RegExp;
  };
  /** The client block. */
  client: {
    /** Its marker name. @default 'client' */
    block?: string;
    /** @default 'client.mts' */
    fileName?: string;
    /** The server URL as printed in the client block; replaced with the started server's. */
    url: string;
  };
}

/** What {@link runReadmeServerAndClient} ran: the finished client and the still running server. */
export interface ReadmeServerAndClientRun {
  readonly client: ReadmeBlockResult;
  readonly server: StartedReadmeBlock;
}

/**
 * Runs a README's quick start as printed: starts its server block (on port 0), runs its client
 * block to the end against it, hands both to `check` while the server still runs, then stops the
 * server, also when `check` or a block fails. Never asserts by itself: a broken block shows in
 * what `check` receives (a client exit code, a server that never got ready rejects).
 *
 * @param readme - The README's blocks ({@link readReadmeBlocks}).
 * @param options - See {@link ReadmeServerAndClientOptions}.
 * @param check - The test's assertions, e.g. on `client.stdout` and `server.stdout()`.
 * @throws Error when the server block exits before it is ready (with its stderr), or whatever
 *   `check` throws
 * @example
 * ```ts
 * await runReadmeServerAndClient(readme, {
 *   cwd: new URL('..', import.meta.url),
 *   server: { replace: [['port: 8787 }', 'port: 0 }']], ready: /^A2UI agent on (http:\/\/\S+)$/ },
 *   client: { url: 'http://127.0.0.1:8787/a2ui' },
 * }, ({ client }) => expect(client.exitCode).toBe(0));
 * ```
 */
export async function runReadmeServerAndClient(
  readme: ReadmeBlocks,
  options: ReadmeServerAndClientOptions,
  check: (run: ReadmeServerAndClientRun) => void | Promise<void>,
): Promise<void> {
  const { cwd, server: serverBlock, client: clientBlock } = options;
  const server = await startReadmeBlock(readme.block(serverBlock.block ?? 'server'), {
    cwd,
    fileName: serverBlock.fileName ?? 'server.mts',
    replace: serverBlock.replace ?? [],
    env: serverBlock.env ?? {},
    ready: serverBlock.ready,
  });
  try {
    const url = server.ready[1];
    if (url === undefined) throw new Error(`${serverBlock.ready} has no group for the URL.`);
    const client = await runReadmeBlock(readme.block(clientBlock.block ?? 'client'), {
      cwd,
      fileName: clientBlock.fileName ?? 'client.mts',
      replace: [[clientBlock.url, url]],
    });
    await check({ client, server });
  } finally {
    await server.stop();
  }
}

/**
 * Typechecks README blocks (code that needs a browser to run, such as a React page) in one `tsc`
 * run with the repository's strict settings: the nearest `tsconfig.base.json` above `cwd`, and
 * `tsc` resolved from `cwd`. Resolves with `tsc`'s output, empty when every block typechecks.
 *
 * @param blocks - the code of each block by the file name it is saved as (its extension decides
 *   TypeScript or TSX), e.g. `{ 'main.tsx': readme.block('quick-start') }`
 * @param options - `cwd` as for {@link runReadmeBlock}
 */
export async function typecheckReadmeBlocks(
  blocks: Readonly<Record<string, string>>,
  options: { cwd: string | URL },
): Promise<string> {
  const dir = newScratchDir(options.cwd);
  const paths = Object.entries(blocks).map(
    ([fileName, code]) => saveBlock(code, { cwd: options.cwd, fileName }, dir).path,
  );
  const cwd = typeof options.cwd === 'string' ? options.cwd : fileURLToPath(options.cwd);
  let base = cwd;
  while (!existsSync(join(base, 'tsconfig.base.json')) && dirname(base) !== base) {
    base = dirname(base);
  }
  const tsconfig = join(dir, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: join(base, 'tsconfig.base.json'),
      compilerOptions: { types: ['node'], noEmit: true },
      files: paths,
    }),
  );
  const tsc = createRequire(join(cwd, 'package.json')).resolve('typescript/bin/tsc');
  try {
    return await new Promise((resolve) => {
      execFile(process.execPath, [tsc, '-p', tsconfig], { cwd }, (_error, stdout, stderr) =>
        resolve(`${stdout}${stderr}`.trim()),
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
