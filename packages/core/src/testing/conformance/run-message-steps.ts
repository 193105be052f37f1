/**
 * The common core of the message-driven actions (`process_messages`, `validate`,
 * `get_renderer_data_model`): a client with the case's catalogs, its messages applied in steps,
 * each step's `expectError` or `expect` checked.
 */
import { CatalogRegistry } from '../../catalog/catalog-registry.js';
import { A2uiClient } from '../../client/a2ui-client.js';
import { isRecord } from '../../protocol/guards.js';
import type { ClientError } from '../../protocol/messages.js';
import { ProtocolVersionRegistry } from '../../versions/protocol-version-registry.js';
import { defaultProtocolVersions } from '../../versions/protocol-versions.js';
import { createV08ProtocolVersion } from '../../versions/v0-8/v0-8.js';
import { type ConformanceContext, caseCatalogs, v08CaseValidators } from './case-catalogs.js';
import type {
  ConformanceCase,
  ConformanceProtocolVersion,
  ExpectedError,
} from './conformance-case.js';
import { findExpectedError } from './expect-error.js';
import { resolveSurfaceNodes } from './resolve-nodes.js';
import { findSurfaceMismatches } from './surface-expectations.js';

/** How a message-driven action runs its case. */
export interface MessageRunOptions {
  /** Strict validation: problems a lenient renderer degrades gracefully are errors. */
  readonly strict: boolean;
  /**
   * Resolve every component after each step, so that errors raised while binding (an unknown
   * function, `@index` outside a template) count as the step's errors.
   */
  readonly resolveBindings: boolean;
}

/** One step of messages, normalised from a case or from one of its `steps`. */
interface MessageStep {
  readonly messages: unknown;
  readonly expectError: ExpectedError | undefined;
  readonly expect: unknown;
}

/**
 * A client for a case: its catalogs, a fixed locale, nothing sent anywhere. The suite's
 * `strictMode` is our full schema validation plus strict topology; without it the reference
 * processor checks message structure only, which is our `validate: false`.
 */
export function createCaseClient(
  testCase: ConformanceCase,
  version: ConformanceProtocolVersion,
  context: ConformanceContext,
  options: MessageRunOptions,
): A2uiClient {
  return new A2uiClient({
    catalogs: new CatalogRegistry(caseCatalogs(testCase, version, context)),
    locale: 'en-US',
    validate: options.strict,
    strict: options.strict,
    protocolVersions: caseProtocolVersions(version, testCase),
  });
}

/**
 * The reference harness builds one processor per protocol version, so a case's messages in another
 * version are that processor's unknown input: the client reads the case's version only (all,
 * when that version has no module yet).
 */
function caseProtocolVersions(
  version: ConformanceProtocolVersion,
  testCase: ConformanceCase,
): ProtocolVersionRegistry {
  // v0.8 checks components before upgrading them: with the case's own v0.8 catalog, if any.
  if (version === 'v0.8') {
    const catalogValidators = v08CaseValidators(testCase);
    if (Object.keys(catalogValidators).length > 0)
      return new ProtocolVersionRegistry([createV08ProtocolVersion({ catalogValidators })]);
  }
  const module = defaultProtocolVersions.byName(version);
  return module ? new ProtocolVersionRegistry([module]) : defaultProtocolVersions;
}

/** The case's message steps: its own `messages`/`payload`, else each of `steps` that has some. */
export function messageSteps(testCase: ConformanceCase): MessageStep[] {
  const own = testCase.messages ?? testCase.payload;
  if (own !== undefined)
    return [{ messages: own, expectError: testCase.expectError, expect: testCase.expect }];
  const steps = testCase.steps ?? [];
  return steps.flatMap((step, index) => {
    const messages = step.messages ?? step.payload;
    if (messages === undefined) return [];
    const last = index === steps.length - 1;
    return [
      {
        messages,
        expectError: step.expectError ?? (last ? testCase.expectError : undefined),
        expect: step.expect ?? (last ? testCase.expect : undefined),
      },
    ];
  });
}

/**
 * Applies the case's messages step by step and checks each step.
 *
 * @returns the client (to inspect further) and one line per mismatch
 */
export function runMessageSteps(
  testCase: ConformanceCase,
  version: ConformanceProtocolVersion,
  context: ConformanceContext,
  options: MessageRunOptions,
): { client: A2uiClient; mismatches: string[] } {
  const client = createCaseClient(testCase, version, context, options);
  const mismatches: string[] = [];
  messageSteps(testCase).forEach((step, index) => {
    const outcome = applyStep(client, step.messages, options);
    const { errors } = outcome;
    const label = `step ${index + 1}`;
    if (step.expectError !== undefined) {
      const mismatch = findExpectedError(errors, step.expectError);
      if (mismatch) mismatches.push(`${label}: ${mismatch}`);
      return;
    }
    // The suite states the resulting state; errors reported on the way (bad input the spec says
    // to report to the agent) fail a step only through the state they leave.
    const state = findSurfaceMismatches(client, step.expect);
    mismatches.push(...state.map((line) => `${label}: ${line}`));
    if (state.length > 0 && outcome.rejected > 0) {
      const list = errors.map((error) => `${error.code}: ${error.message}`).join(' | ');
      mismatches.push(`${label}: (${outcome.rejected} message(s) were rejected: ${list})`);
    }
  });
  return { client, mismatches };
}

/** What one step did: every error reported (processing and binding), and messages not applied. */
interface StepOutcome {
  readonly errors: readonly ClientError[];
  /** Messages rejected outright (not applied, not even with graceful degradation). */
  readonly rejected: number;
}

function applyStep(client: A2uiClient, messages: unknown, options: MessageRunOptions): StepOutcome {
  const heard: ClientError[] = [];
  const stop = client.processor.onError((error) => heard.push(error));
  try {
    const result = client.processor.process(messages);
    if (options.resolveBindings) {
      for (const surface of client.processor.getSurfaces())
        resolveSurfaceNodes(client, surface.surfaceId);
    }
    const errors = [...result.errors, ...heard.filter((error) => !result.errors.includes(error))];
    return { errors, rejected: Math.max(0, countMessages(messages) - result.applied) };
  } finally {
    stop();
  }
}

function countMessages(messages: unknown): number {
  if (Array.isArray(messages)) return messages.length;
  if (isRecord(messages) && Array.isArray(messages.messages)) return messages.messages.length;
  return 1;
}
