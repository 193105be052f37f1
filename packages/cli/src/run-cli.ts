/**
 * The `a2ui` command: `validate`, `replay` and `compile-catalog`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  createCatalog,
  createDefaultCatalogs,
  MessageProcessor,
  snapshotState,
} from '@a2ui-ts/core';
import { compileCatalogValidator, generateCatalogValidatorModule } from '@a2ui-ts/core/compile';
import { checkMessages } from './check-messages.js';
import { isReadFailure, readMessages } from './read-messages.js';

/** Where the command reads and writes; `process` streams by default. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads standard input to the end: raw bytes (checked as UTF-8), or text already decoded. */
  readStdin: () => Promise<Uint8Array | string>;
}

const USAGE = `Usage:
  a2ui validate <file…|->  [--catalog <catalog.json>]…
      Validates A2UI v0.9 server messages (.jsonl: one per line; .json: a message, an array,
      {"messages": […]} or a sample file) against the schema of their surface's catalog and by
      applying them in order (unknown surfaces, bad paths…). Prints one spec error object per
      line for each problem, in file order, and a summary on stderr; exits 1 if any, 0 otherwise.
  a2ui replay <file|-> [--at <N>] [--catalog <catalog.json>]…
      Applies the stream (the first N messages with --at) and prints the final state as JSON:
      {"surfaces": {…}, "errors": […]}.
  a2ui compile-catalog <catalog.json> [--out <file.js>]
      Precompiles a custom catalog's validator to a standalone ES module (no eval at run time).
`;

/**
 * Runs the CLI with `argv` (without `node` and the script).
 * @returns the exit code: 0 success, 1 invalid input found, 2 usage or I/O error
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'validate':
        return await validateCommand(rest, io);
      case 'replay':
        return await replayCommand(rest, io);
      case 'compile-catalog':
        return await compileCatalogCommand(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.stdout(USAGE);
        return command === undefined ? 2 : 0;
      default:
        io.stderr(`a2ui: unknown command "${command}".\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    io.stderr(`a2ui: ${(error as Error).message}\n`);
    return 2;
  }
}

async function readSource(source: string, io: CliIo): Promise<Uint8Array | string> {
  return source === '-' ? io.readStdin() : readFile(source);
}

async function loadCatalogs(paths: readonly string[]) {
  const catalogs = createDefaultCatalogs();
  for (const path of paths) {
    const schema = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    const catalogId =
      typeof schema.catalogId === 'string'
        ? schema.catalogId
        : typeof schema.$id === 'string'
          ? schema.$id
          : undefined;
    if (!catalogId) throw new Error(`${path}: a catalog needs a "catalogId" (or "$id").`);
    catalogs.register(
      createCatalog({ catalogId, schema, validator: compileCatalogValidator(schema) }),
    );
  }
  return catalogs;
}

async function validateCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { catalog: { type: 'string', multiple: true } },
  });
  if (positionals.length === 0)
    throw new Error('validate needs at least one file (or - for standard input).');
  const catalogs = await loadCatalogs(values.catalog ?? []);
  let messages = 0;
  let problems = 0;
  for (const source of positionals) {
    const name = source === '-' ? 'stdin' : source;
    const items = readMessages(await readSource(source, io), name);
    messages += items.filter((item) => !isReadFailure(item)).length;
    for (const error of checkMessages(items, name, new MessageProcessor({ catalogs }))) {
      io.stdout(`${JSON.stringify(error)}\n`);
      problems++;
    }
  }
  io.stderr(
    `a2ui: ${positionals.length} ${positionals.length === 1 ? 'source' : 'sources'}, ${messages} ${messages === 1 ? 'message' : 'messages'}, ${problems} ${problems === 1 ? 'problem' : 'problems'}\n`,
  );
  return problems > 0 ? 1 : 0;
}

async function replayCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { at: { type: 'string' }, catalog: { type: 'string', multiple: true } },
  });
  const [source] = positionals;
  if (source === undefined || positionals.length > 1) {
    throw new Error('replay needs exactly one file (or - for standard input).');
  }
  const at = values.at === undefined ? undefined : Number(values.at);
  if (at !== undefined && (!Number.isInteger(at) || at < 0)) {
    throw new Error(`--at needs a whole number ≥ 0, got "${values.at}".`);
  }
  const name = source === '-' ? 'stdin' : source;
  const items = readMessages(await readSource(source, io), name).filter(
    (item) => at === undefined || isReadFailure(item) || item.number <= at,
  );
  const processor = new MessageProcessor({ catalogs: await loadCatalogs(values.catalog ?? []) });
  const errors = checkMessages(items, name, processor);
  io.stdout(`${JSON.stringify({ ...snapshotState(processor), errors }, null, 2)}\n`);
  return 0;
}

async function compileCatalogCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { out: { type: 'string', short: 'o' } },
  });
  const [source] = positionals;
  if (source === undefined) throw new Error('compile-catalog needs a catalog file.');
  const schema = JSON.parse(await readFile(source, 'utf8')) as Record<string, unknown>;
  const code = generateCatalogValidatorModule(schema);
  if (values.out) await writeFile(values.out, code);
  else io.stdout(code);
  return 0;
}
