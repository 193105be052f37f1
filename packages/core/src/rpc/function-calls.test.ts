import { describe, expect, it } from 'vitest';
import { A2uiError } from '../errors/a2ui-error.js';
import { AgentFunctionRegistry } from './agent-functions.js';
import { checkFunctionCallMessage, getFunctionCallKind } from './function-call-messages.js';
import { PendingFunctionCalls } from './pending-function-calls.js';
import { RendererFunctionRegistry } from './renderer-functions.js';

const call = (functionCallId: string, name: string, args: Record<string, unknown> = {}) => ({
  functionCallId,
  callFunction: { call: name, catalogId: 'basic', args },
});

/** The renderer functions of conformance `core/rpc_functions.yaml`. */
function conformanceRegistry(): RendererFunctionRegistry {
  return new RendererFunctionRegistry()
    .register({
      name: 'playMedia',
      allowedCallers: 'rendererOrAgent',
      implementation: () => ({ playing: true, timestamp: 0 }),
    })
    .register({
      name: 'internalStateReset',
      allowedCallers: 'rendererOnly',
      implementation: () => null,
    })
    .register({
      name: 'openExternalUrl',
      allowedCallers: 'rendererOrAgent',
      requiresUserActivation: true,
      implementation: () => ({ opened: true }),
    })
    .register({
      name: 'failingFunction',
      allowedCallers: 'rendererOrAgent',
      implementation: () => {
        throw new Error('secret internal detail');
      },
    })
    .register({ name: 'syncState', allowedCallers: 'agentOnly', implementation: () => undefined });
}

describe('RendererFunctionRegistry (callRendererFunction)', () => {
  it('answers an agent-callable function with its value', async () => {
    expect(
      await conformanceRegistry().respond(call('call-101', 'playMedia', { mediaId: 'v' })),
    ).toEqual({
      version: 'v1.0',
      rendererFunctionResponse: {
        functionCallId: 'call-101',
        value: { playing: true, timestamp: 0 },
      },
    });
  });

  it('refuses rendererOnly and unknown functions with INVALID_FUNCTION_CALL', async () => {
    const registry = conformanceRegistry();
    expect(await registry.handle(call('call-102', 'internalStateReset'))).toEqual({
      functionCallId: 'call-102',
      error: {
        code: 'INVALID_FUNCTION_CALL',
        message:
          "Function 'internalStateReset' cannot be called by agent (allowedCallers is rendererOnly).",
      },
    });
    const unknown = await registry.handle(call('call-x', 'nope'));
    expect(unknown).toMatchObject({
      functionCallId: 'call-x',
      error: { code: 'INVALID_FUNCTION_CALL' },
    });
  });

  it('refuses a function registered for another catalog', async () => {
    const registry = new RendererFunctionRegistry().register({
      name: 'f',
      catalogId: 'mine',
      allowedCallers: 'agentOnly',
      implementation: () => 1,
    });
    expect(await registry.handle(call('c', 'f'))).toMatchObject({
      error: { code: 'INVALID_FUNCTION_CALL' },
    });
    expect(
      await registry.handle({
        functionCallId: 'c',
        callFunction: { call: 'f', catalogId: 'mine' },
      }),
    ).toEqual({ functionCallId: 'c', value: 1 });
  });

  it('runs an activation-gated function only in a user gesture, consuming it', async () => {
    const registry = conformanceRegistry();
    expect(
      await registry.handle(call('call-103', 'openExternalUrl'), { userActivation: true }),
    ).toEqual({
      functionCallId: 'call-103',
      value: { opened: true },
    });
    expect(
      await registry.handle(call('call-104', 'openExternalUrl'), { userActivation: false }),
    ).toEqual({
      functionCallId: 'call-104',
      error: {
        code: 'INVALID_FUNCTION_CALL',
        message: "Function 'openExternalUrl' requires user activation context to execute.",
      },
    });
    expect(await registry.handle(call('a', 'openExternalUrl'))).toHaveProperty('error');
    registry.noteUserActivation();
    expect(await registry.handle(call('b', 'openExternalUrl'))).toEqual({
      functionCallId: 'b',
      value: { opened: true },
    });
    // The gesture was consumed by the call above.
    expect(await registry.handle(call('c', 'openExternalUrl'))).toHaveProperty('error');
  });

  it('answers a throwing function with EXECUTION_ERROR and no internal text', async () => {
    const response = await conformanceRegistry().handle(call('call-105', 'failingFunction'));
    expect(response).toEqual({
      functionCallId: 'call-105',
      error: { code: 'EXECUTION_ERROR', message: 'An error occurred during function execution.' },
    });
    expect(JSON.stringify(response)).not.toContain('secret');
  });

  it('answers a void agentOnly function with value null', async () => {
    expect(await conformanceRegistry().handle(call('call-106', 'syncState'))).toEqual({
      functionCallId: 'call-106',
      value: null,
    });
  });

  it('refuses registering an unknown allowedCallers', () => {
    expect(() =>
      new RendererFunctionRegistry().register({
        name: 'f',
        allowedCallers: 'everyone' as never,
        implementation: () => 1,
      }),
    ).toThrow(A2uiError);
  });
});

describe('AgentFunctionRegistry (callAgentFunction)', () => {
  const registry = new AgentFunctionRegistry([
    {
      name: 'queryInventory',
      parameters: {
        type: 'object',
        properties: { sku: { type: 'string', pattern: '^ITEM-' } },
        required: ['sku'],
        additionalProperties: false,
      },
      handler: ({ sku }, context) => ({ sku, inStock: 12, surfaceId: context.surfaceId }),
    },
    {
      name: 'explode',
      handler: () => {
        throw new Error('database password is hunter2');
      },
    },
  ]);
  const body = (name: string, args: unknown) => ({
    surfaceId: 'main',
    functionCallId: 'agent-call-55',
    callFunction: { call: name, args },
  });

  it('runs a handler with schema-checked arguments', async () => {
    expect(await registry.respond(body('queryInventory', { sku: 'ITEM-404' }))).toEqual({
      version: 'v1.0',
      agentFunctionResponse: {
        functionCallId: 'agent-call-55',
        value: { sku: 'ITEM-404', inStock: 12, surfaceId: 'main' },
      },
    });
  });

  it('refuses arguments that fail the schema before the handler sees them', async () => {
    const missing = await registry.handle(body('queryInventory', {}));
    expect(missing).toMatchObject({ error: { code: 'INVALID_FUNCTION_CALL' } });
    expect((missing as { error: { message: string } }).error.message).toContain('sku');
    const extra = await registry.handle(body('queryInventory', { sku: 'ITEM-1', evil: true }));
    expect(extra).toMatchObject({ error: { code: 'INVALID_FUNCTION_CALL' } });
  });

  it('answers UNKNOWN_FUNCTION and EXECUTION_ERROR without leaking handler text', async () => {
    expect(await registry.handle(body('nope', {}))).toMatchObject({
      error: { code: 'UNKNOWN_FUNCTION' },
    });
    const failed = await registry.handle(body('explode', {}));
    expect(failed).toMatchObject({ error: { code: 'EXECUTION_ERROR' } });
    expect(JSON.stringify(failed)).not.toContain('hunter2');
  });
});

describe('PendingFunctionCalls', () => {
  it('correlates responses by functionCallId and turns errors into FUNCTION_CALL_FAILED', async () => {
    const calls = new PendingFunctionCalls();
    const first = calls.start('a', 'f');
    const second = calls.start('b', 'g');
    expect(calls.settle({ functionCallId: 'zzz', value: 1 })).toBe(false);
    calls.settle({ functionCallId: 'b', error: { code: 'EXECUTION_FAILED', message: 'boom' } });
    calls.settle({ functionCallId: 'a', value: 42 });
    expect(await first).toBe(42);
    const error = await second.catch((caught: unknown) => caught);
    expect(A2uiError.isInstance(error) && error.code).toBe('FUNCTION_CALL_FAILED');
    // The doc's EXECUTION_FAILED reads as the suite's EXECUTION_ERROR.
    expect((error as A2uiError).data).toEqual({
      functionCallId: 'b',
      code: 'EXECUTION_ERROR',
      message: 'boom',
    });
    expect(calls.size).toBe(0);
  });

  it('gives up on timeout and abort, and drops the late answer', async () => {
    const calls = new PendingFunctionCalls();
    const timedOut = await calls
      .start('t', 'slow', { timeoutMs: 1 })
      .catch((error: A2uiError) => error);
    expect((timedOut as A2uiError).code).toBe('TIMEOUT');
    expect(calls.settle({ functionCallId: 't', value: 1 })).toBe(false);
    const abort = new AbortController();
    const pending = calls.start('x', 'f', { signal: abort.signal });
    abort.abort();
    expect(((await pending.catch((error: A2uiError) => error)) as A2uiError).code).toBe('ABORTED');
    const closed = calls.start('y', 'f');
    calls.failAll(new A2uiError('CONNECTION_CLOSED', 'gone'));
    expect(((await closed.catch((error: A2uiError) => error)) as A2uiError).code).toBe(
      'CONNECTION_CLOSED',
    );
  });
});

describe('function-call messages', () => {
  it('recognises the four messages in both version spellings, and the error form', () => {
    expect(getFunctionCallKind({ version: '1.0', callAgentFunction: {} })).toBe(
      'callAgentFunction',
    );
    expect(getFunctionCallKind({ version: 'v0.9', callAgentFunction: {} })).toBeUndefined();
    expect(
      getFunctionCallKind({
        version: 'v1.0',
        error: { code: 'X', message: 'm', functionCallId: 'c' },
      }),
    ).toBe('rendererFunctionResponse');
    expect(getFunctionCallKind({ version: 'v1.0', createSurface: {} })).toBeUndefined();
  });

  it('checks shapes: exactly one of value and error, catalogId on callRendererFunction', () => {
    expect(
      checkFunctionCallMessage({
        version: 'v1.0',
        rendererFunctionResponse: { functionCallId: 'c' },
      }),
    ).toEqual([
      {
        path: '/rendererFunctionResponse',
        message: 'Expected exactly one of "value" and "error".',
      },
    ]);
    expect(
      checkFunctionCallMessage({
        version: 'v1.0',
        callRendererFunction: { functionCallId: 'c', callFunction: { call: 'f' } },
      })[0]?.path,
    ).toBe('/callRendererFunction/callFunction/catalogId');
    expect(
      checkFunctionCallMessage({
        version: 'v1.0',
        callAgentFunction: { surfaceId: 's', functionCallId: 'c', callFunction: { call: 'f' } },
      }),
    ).toEqual([]);
  });
});
