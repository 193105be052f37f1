/**
 * Builds a Vite app for production from inside a vitest run, as `vite build` would.
 */

/** Options of {@link buildForProduction}. */
export interface ProductionBuildOptions {
  /** Absolute path of the app's Vite config (`vite.config.ts`). */
  readonly configFile: string;
  /** Folder the build is written to (emptied first). */
  readonly outDir: string;
  /** Also write Vite's `.vite/manifest.json` (which chunk each entry loads). @default false */
  readonly manifest?: boolean;
  /** What Vite prints. @default 'warn' */
  readonly logLevel?: 'info' | 'warn' | 'error' | 'silent';
}

/** What {@link buildForProduction} built. */
export interface ProductionBuild {
  /**
   * Every warning Vite logged, whatever `logLevel` printed, e.g. its "Some chunks are larger than
   * 500 kB after minification" (what `vite build` prints for the app); empty when there was none.
   */
  readonly warnings: readonly string[];
}

/**
 * Runs Vite's `build()` in `production` mode with `NODE_ENV=production` for its duration
 * (restored afterwards, also when the build fails): vitest sets `NODE_ENV=test`, which would make
 * the React plugin emit development JSX. Vite is loaded on the first call only, so suites that
 * just launch Chromium do not pay for it.
 *
 * @returns the warnings Vite logged
 * @throws whatever Vite's `build()` throws (a syntax error, an unresolved import)
 * @example
 * ```ts
 * const { warnings } = await buildForProduction({
 *   configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
 *   outDir: await mkdtemp(join(tmpdir(), 'my-app-')),
 * });
 * expect(warnings).toEqual([]);
 * ```
 */
export async function buildForProduction(
  options: ProductionBuildOptions,
): Promise<ProductionBuild> {
  const { build, createLogger } = await import('vite');
  const logLevel = options.logLevel ?? 'warn';
  const logger = createLogger(logLevel);
  const warnings: string[] = [];
  // Recorded before the level filter of Vite's own logger, which still decides what is printed.
  const { warn, warnOnce } = logger;
  logger.warn = (message, logOptions) => {
    warnings.push(message);
    warn(message, logOptions);
  };
  logger.warnOnce = (message, logOptions) => {
    warnings.push(message);
    warnOnce(message, logOptions);
  };
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: options.configFile,
      mode: 'production',
      logLevel,
      customLogger: logger,
      build: {
        outDir: options.outDir,
        emptyOutDir: true,
        reportCompressedSize: false,
        manifest: options.manifest ?? false,
      },
    });
    return { warnings };
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
