/**
 * Lists the functions of a source tree longer than a limit — declarations, methods, accessors,
 * constructors, function expressions and arrow functions (closures) alike — measured in lines
 * from the line of the function's first token to the line of its last, as the TypeScript
 * compiler parses it. Issue 24 holds client links to "no closure over 150 lines"; the `repo`
 * test `long-functions.test.ts` keeps the packages that were split under it.
 *
 * Usage: `node --import tsx scripts/long-functions.ts <dir>… [--max-lines 150] [--all]`
 * (`--all` also lists the functions of test files). Exits 1 when it found one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** One function over the limit. */
export interface LongFunction {
  /** The file, relative to the working directory of the caller's choice (see {@link findLongFunctions}). */
  readonly file: string;
  /** 1-based line of its first token. */
  readonly line: number;
  /** Lines from its first token to its last, both included. */
  readonly lines: number;
  /** Its name: the declared one, or the variable, property or class member it is assigned to. */
  readonly name: string;
}

/** Options of {@link findLongFunctions}. */
export interface LongFunctionOptions {
  /** A function of more lines than this is listed. @default 150 */
  readonly maxLines?: number;
  /** Also read `*.test.ts(x)` files. @default false */
  readonly includeTests?: boolean;
  /** Paths in the answer are relative to this directory. @default process.cwd() */
  readonly root?: string;
}

const SOURCE = /\.(ts|tsx|mts|cts)$/;
const TEST = /\.test\.tsx?$/;

function sourceFiles(dir: string, includeTests: boolean): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (entry === 'node_modules' || entry === 'dist') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path, includeTests);
    if (!SOURCE.test(entry) || entry.endsWith('.d.ts')) return [];
    return includeTests || !TEST.test(entry) ? [path] : [];
  });
}

/** The name a function is known by in its file (`<anonymous>` when it has none). */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
    return parent.name.getText(source);
  if (ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `<argument of ${parent.expression.getText(source)}>`;
  return '<anonymous>';
}

/** The functions of one file longer than `maxLines`. */
export function longFunctionsOfSource(
  text: string,
  fileName: string,
  maxLines: number,
): LongFunction[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const first = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
      const lines = last - first + 1;
      if (lines > maxLines)
        found.push({ file: fileName, line: first + 1, lines, name: nameOf(fn, source) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The functions longer than `maxLines` in the source files under `dirs`, longest first.
 *
 * @param dirs - directories to read (recursively; `node_modules` and `dist` skipped)
 * @param options - see {@link LongFunctionOptions}
 */
export function findLongFunctions(
  dirs: readonly string[],
  options: LongFunctionOptions = {},
): LongFunction[] {
  const maxLines = options.maxLines ?? 150;
  const root = options.root ?? process.cwd();
  return dirs
    .flatMap((dir) => sourceFiles(dir, options.includeTests ?? false))
    .flatMap((file) =>
      longFunctionsOfSource(readFileSync(file, 'utf8'), relative(root, file), maxLines),
    )
    .sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const limitAt = args.indexOf('--max-lines');
  const maxLines = limitAt >= 0 ? Number(args[limitAt + 1]) : 150;
  const dirs = args.filter(
    (arg, index) => !arg.startsWith('--') && (limitAt < 0 || index !== limitAt + 1),
  );
  const found = findLongFunctions(dirs, { maxLines, includeTests: args.includes('--all') });
  for (const fn of found) console.log(`${fn.lines}\t${fn.file}:${fn.line}\t${fn.name}`);
  process.exitCode = found.length > 0 ? 1 : 0;
}
