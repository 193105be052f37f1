/**
 * `handle_rpc` (v1.0 function calls, `core/rpc_functions.yaml`), through a real `A2uiClient`:
 * - `args.message` is a `callRendererFunction` the client processes; the renderer functions are
 *   the case's `functionMetadata` (`allowedCallers`, `requiresUserActivation`) with the fixture
 *   implementations the suite's expectations imply ({@link CASE_FUNCTIONS});
 *   `userActivationPresent: true` is a user gesture noted before the call. The first message the
 *   client sends back is compared with `expect.response`.
 * - `args.outboundCall` is a `callAgentFunction` the client makes; `args.inboundResponse` is the
 *   agent's answer it processes. The call's id and resolved value are compared with
 *   `expect.correlatedCallId` and `expect.result`.
 */
import type { AllowedCallers } from '../../../catalog/catalog-definition.js';
import { A2uiClient } from '../../../client/a2ui-client.js';
import { createRecordingTransport } from '../../../client/test-recording-transport.js';
import { toA2uiError } from '../../../errors/a2ui-error.js';
import { isRecord } from '../../../protocol/guards.js';
import type { FunctionCallRequest } from '../../../rpc/function-call-messages.js';
import type { RendererFunction } from '../../../rpc/renderer-functions.js';
import type { ConformanceActionHandler } from '../conformance-action.js';
import { findSubsetMismatch, show } from '../match-expected.js';

/** The renderer functions the suite's cases call, as their expectations describe them. */
export const CASE_FUNCTIONS: Readonly<Record<string, RendererFunction['implementation']>> = {
  playMedia: () => ({ playing: true, timestamp: 0 }),
  openExternalUrl: () => ({ opened: true }),
  failingFunction: () => {
    throw new Error('failingFunction always fails (conformance fixture)');
  },
  syncState: () => undefined,
};

const WAIT = { timeoutMs: 5_000 };

function rendererFunctions(metadata: unknown): RendererFunction[] {
  if (!isRecord(metadata)) return [];
  return Object.entries(metadata).map(([name, meta]) => {
    const info = isRecord(meta) ? meta : {};
    return {
      name,
      allowedCallers: (info.allowedCallers as AllowedCallers | undefined) ?? 'rendererOnly',
      requiresUserActivation: info.requiresUserActivation === true,
      implementation: CASE_FUNCTIONS[name] ?? (() => null),
    };
  });
}

async function answerRendererCall(
  args: Record<string, unknown>,
  expect: unknown,
): Promise<string[]> {
  const transport = createRecordingTransport();
  const client = new A2uiClient({
    transport,
    rendererFunctions: rendererFunctions(args.functionMetadata),
  });
  // The `sent` event comes as the answer is handed to the transport: wait for it, not the transport.
  const sent: unknown[] = [];
  client.subscribe((event) => {
    if (event.type === 'sent') sent.push(event.message);
  });
  if (args.userActivationPresent === true) client.noteUserActivation();
  const result = client.process(args.message);
  if (result.errors.length > 0)
    return [`the call was refused as a message: ${show(result.errors)}`];
  await client.until(() => sent.length > 0, WAIT);
  const want = isRecord(expect) ? expect.response : undefined;
  const mismatch = findSubsetMismatch(sent[0], want);
  return mismatch ? [mismatch] : [];
}

async function callAgent(args: Record<string, unknown>, expect: unknown): Promise<string[]> {
  const outbound = isRecord(args.outboundCall) ? args.outboundCall : {};
  const transport = createRecordingTransport();
  const client = new A2uiClient({ transport });
  const result = client.callAgentFunction(
    String(outbound.surfaceId),
    outbound.callFunction as FunctionCallRequest,
    { ...WAIT, functionCallId: String(outbound.functionCallId) },
  );
  await client.until(() => transport.sent.length > 0, WAIT);
  const sent = transport.sent[0]!.message as unknown as {
    callAgentFunction?: { functionCallId?: string };
  };
  client.process(args.inboundResponse);
  const value = await result;
  const want = isRecord(expect) ? expect : {};
  const mismatches: string[] = [];
  if (sent.callAgentFunction?.functionCallId !== want.correlatedCallId)
    mismatches.push(
      `sent functionCallId ${show(sent.callAgentFunction?.functionCallId)}, expected ${show(want.correlatedCallId)}`,
    );
  const mismatch = findSubsetMismatch(value, want.result);
  if (mismatch) mismatches.push(mismatch);
  return mismatches;
}

/** The `handle_rpc` handler. */
export const handleRpc: ConformanceActionHandler = async ({ testCase }) => {
  const args = testCase.args ?? {};
  try {
    if (args.message !== undefined) return await answerRendererCall(args, testCase.expect);
    if (args.outboundCall !== undefined) return await callAgent(args, testCase.expect);
    return ['handle_rpc case with neither args.message nor args.outboundCall'];
  } catch (caught) {
    const error = toA2uiError(caught, 'INTERNAL_ERROR');
    return [`${error.code}: ${error.message}`];
  }
};
