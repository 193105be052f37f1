/**
 * The shape of one case of the official conformance suite (`fixtures/conformance/`, validated by
 * its `conformance_schema.json`), and the protocol version a case is written against.
 */

/** The protocol versions the suite names (`conformance_schema.json#/$defs/ProtocolVersion`). */
export type ConformanceProtocolVersion = 'v0.8' | 'v0.9' | 'v0.9.1' | 'v1.0';

/** Every action the suite's schema allows (`conformance_schema.json`, `TestCase.action`). */
export const CONFORMANCE_ACTION_NAMES = [
  'accessibility_check',
  'catalog_schema',
  'convert_event',
  'create_a2ui_part',
  'execute_tool',
  'fix_payload',
  'from_json',
  'generate_prompt',
  'get_extension',
  'get_renderer_capabilities',
  'get_renderer_data_model',
  'handle_rpc',
  'has_parts',
  'is_a2ui_part',
  'load_catalog',
  'parse_full',
  'process_chunk',
  'process_messages',
  'prune',
  'remove_strict_validation',
  'resolve_path',
  'select_catalog',
  'select_newest',
  'try_activate',
  'try_activate_extension',
  'validate',
  'verify_cuttable_keys',
] as const;

/** One action of the suite. */
export type ConformanceAction = (typeof CONFORMANCE_ACTION_NAMES)[number];

/** An expected error: a message (string), or a category with an optional message and details. */
export type ExpectedError =
  | string
  | {
      category?: string;
      code?: string;
      message?: string;
      details?: ReadonlyArray<{ path?: string; code?: string; message?: string }>;
    };

/** An inline catalog of a case (`conformance_schema.json#/$defs/Catalog`). */
export interface ConformanceCatalog {
  catalogId?: string;
  protocolVersion?: ConformanceProtocolVersion;
  components?: Record<string, unknown>;
  functions?: Record<string, unknown> | string[];
  theme?: Record<string, unknown>;
  $defs?: Record<string, unknown>;
  [key: string]: unknown;
}

/** One step of a multi-step case. */
export interface ConformanceStep {
  input?: unknown;
  messages?: unknown;
  payload?: unknown;
  chunk?: string;
  args?: Record<string, unknown>;
  expect?: unknown;
  expectError?: ExpectedError;
  expectContains?: unknown;
}

/** One case of the suite, as its YAML holds it. */
export interface ConformanceCase {
  name: string;
  action: ConformanceAction;
  description?: string;
  protocolVersion?: ConformanceProtocolVersion;
  catalog?: ConformanceCatalog;
  catalogs?: ConformanceCatalog[];
  catalogPaths?: string[];
  catalogPath?: string;
  catalogId?: string;
  catalogConfigs?: Array<{ name: string; path: string }>;
  input?: unknown;
  messages?: unknown;
  payload?: unknown;
  surface?: Record<string, unknown>;
  args?: Record<string, unknown>;
  format?: unknown;
  modifiers?: string[];
  strictMode?: boolean;
  disableValidation?: boolean;
  steps?: ConformanceStep[];
  expect?: unknown;
  expectError?: ExpectedError;
  expectContains?: unknown;
  expectEmpty?: boolean;
  expectSelected?: string;
  assertions?: { axeCore?: string[]; accessibilityTree?: Record<string, unknown> };
}

/** A case with where it comes from. */
export interface LocatedConformanceCase {
  /** The suite file, relative to the suite root (`core/message_processor.yaml`). */
  readonly file: string;
  readonly testCase: ConformanceCase;
  /** The version the case is written against ({@link resolveCaseVersion}). */
  readonly version: ConformanceProtocolVersion;
}

const VERSION_HINTS: ReadonlyArray<[RegExp, ConformanceProtocolVersion]> = [
  [/v08|v0_8/, 'v0.8'],
  [/v09|v0_9/, 'v0.9'],
  [/v10|v1_0|v1\.0/, 'v1.0'],
];

/**
 * The protocol version a case is written against, the way the reference harness reads it: the
 * case's `protocolVersion`, else its catalog's, else the first of its `catalogs` that names one,
 * else a version spelled in its catalog id (`…v08…`, `…v1_0…`), else the first message envelope
 * `version`, else `v0.9` (the suite's baseline).
 *
 * @param testCase - a case of the suite
 * @returns its version
 */
export function resolveCaseVersion(testCase: ConformanceCase): ConformanceProtocolVersion {
  if (testCase.protocolVersion) return testCase.protocolVersion;
  if (testCase.catalog?.protocolVersion) return testCase.catalog.protocolVersion;
  for (const catalog of testCase.catalogs ?? [])
    if (catalog?.protocolVersion) return catalog.protocolVersion;
  const catalogId = testCase.catalogId ?? testCase.catalog?.catalogId ?? '';
  for (const [pattern, version] of VERSION_HINTS) if (pattern.test(catalogId)) return version;
  return envelopeVersion(testCase) ?? 'v0.9';
}

function envelopeVersion(testCase: ConformanceCase): ConformanceProtocolVersion | undefined {
  const sources = [
    testCase.messages,
    testCase.payload,
    ...(testCase.steps ?? []).map((s) => s.messages ?? s.payload),
  ];
  for (const source of sources) {
    const unwrapped = (source as { messages?: unknown } | null)?.messages ?? source;
    const list = Array.isArray(unwrapped) ? unwrapped : [unwrapped];
    for (const message of list) {
      const version = (message as { version?: unknown } | null)?.version;
      if (version === '1.0' || version === 'v1.0') return 'v1.0';
      if (version === 'v0.9.1') return 'v0.9.1';
      if (version === 'v0.9') return 'v0.9';
    }
  }
  return undefined;
}
