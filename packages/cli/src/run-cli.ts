/**
 * The `a2ui` command: `validate`, `replay`, `migrate` and `compile-catalog`.
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
import { migrateSource, parseCliVersion } from './migrate-command.js';
import { isReadFailure, readMessages } from './read-messages.js';

/** Where the command reads and writes; `process` streams by default. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads standard input to the end: raw bytes (checked as UTF-8), or text already decoded. */
  readStdin: () => Promise<Uint8Array | string>;
}

const USAGE = `Usage:
  a2ui validate <file…|->  [--catalog <catalog.json>]… [--version v0.8|v0.9|v1.0]
      Validates A2UI agent messages (.jsonl: one per line; .json: a message, an array,
      {"messages": […]} or a sample file) against the schema of their version and surface's
      catalog and by applying them in order (unknown surfaces, bad paths…). Each message's version
      is read from its envelope (v0.8 messages have none: their keys tell); --version reads every
      message as that version. Prints one spec error object per line for each problem, in file
      order, and a summary on stderr; exits 1 if any, 0 otherwise.
  a2ui replay <file|-> [--at <N>] [--catalog <catalog.json>]… [--version v0.8|v0.9|v1.0]
      Applies the stream (the first N messages with --at) and prints the final state as JSON:
      {"surfaces": {…}, "errors": […]}.
  a2ui migrate --to v1.0|v0.9|v0.8 <file|-> [--from v0.8|v0.9|v1.0] [--out <file>]
      Converts the stream to another version, written as JSON Lines or JSON like the input.
      Everything the target version cannot express is reported on stderr; exits 1 if anything
      was lost, 0 otherwise.
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
      case 'migrate':
        return await migrateCommand(rest, io);
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
    options: { catalog: { type: 'string', multiple: true }, version: { type: 'string' } },
  });
  const version =
    values.version === undefined ? undefined : parseCliVersion(values.version, '--version');
  if (positionals.length === 0)
    throw new Error('validate needs at least one file (or - for standard input).');
  const catalogs = await loadCatalogs(values.catalog ?? []);
  let messages = 0;
  let problems = 0;
  for (const source of positionals) {
    const name = source === '-' ? 'stdin' : source;
    const items = readMessages(await readSource(source, io), name);
    messages += items.filter((item) => !isReadFailure(item)).length;
    for (const error of checkMessages(items, name, new MessageProcessor({ catalogs }), {
      version,
    })) {
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
    options: {
      at: { type: 'string' },
      catalog: { type: 'string', multiple: true },
      version: { type: 'string' },
    },
  });
  const version =
    values.version === undefined ? undefined : parseCliVersion(values.version, '--version');
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
  const errors = checkMessages(items, name, processor, { version });
  io.stdout(`${JSON.stringify({ ...snapshotState(processor), errors }, null, 2)}\n`);
  return 0;
}

async function migrateCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      to: { type: 'string' },
      from: { type: 'string' },
      out: { type: 'string', short: 'o' },
    },
  });
  const [source] = positionals;
  if (source === undefined || positionals.length > 1) {
    throw new Error('migrate needs exactly one file (or - for standard input).');
  }
  if (values.to === undefined) throw new Error('migrate needs --to v1.0, v0.9 or v0.8.');
  const to = parseCliVersion(values.to, '--to');
  const from = values.from === undefined ? undefined : parseCliVersion(values.from, '--from');
  const name = source === '-' ? 'stdin' : source;
  const input = await readSource(source, io);
  const items = readMessages(input, name);
  const document = items.some((item) => item.line !== undefined) ? undefined : parseDocument(input);
  const { text, problems } = migrateSource(items, document, { name, to, from });
  // A one-message input whose message was dropped has nothing to write: `[]` would change its
  // container, and --out keeps what it held.
  if (text !== undefined) {
    if (values.out) await writeFile(values.out, text);
    else io.stdout(text);
  }
  for (const problem of problems) io.stderr(`a2ui: ${problem}\n`);
  const nothing = text === undefined ? '; nothing written: no message of the input is left' : '';
  io.stderr(
    `a2ui: migrated to ${to}; ${problems.length} ${problems.length === 1 ? 'thing' : 'things'} could not be expressed${nothing}\n`,
  );
  return problems.length > 0 ? 1 : 0;
}

/** The JSON document of a non-JSONL source (its container shape is kept), or `undefined`. */
function parseDocument(input: Uint8Array | string): unknown {
  try {
    const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
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
