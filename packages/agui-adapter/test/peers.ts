/**
 * The real AG-UI peers: `@ag-ui/client` 1.0.0 and 0.0.58 `HttpAgent`s (each with its own zod
 * validation and event verifier), and a run helper that records what a run did — its events,
 * whether it failed, and the warnings the client printed (a state patch it could not apply, a
 * field its enforcement stage dropped).
 */
import { HttpAgent as HttpAgent1 } from '@ag-ui/client';
import { HttpAgent as HttpAgent0058 } from '@ag-ui/client-0058';
import { vi } from 'vitest';

/** The clients every stream is checked with. */
export const PEERS = [
  { version: '1.0.0', HttpAgent: HttpAgent1 },
  { version: '0.0.58', HttpAgent: HttpAgent0058 as unknown as typeof HttpAgent1 },
] as const;

export type PeerAgent = InstanceType<typeof HttpAgent1>;

/** What one `runAgent` did. */
export interface PeerRun {
  readonly events: Array<Record<string, unknown> & { type: string }>;
  readonly failure: Error | undefined;
  readonly warnings: string[];
  /** The state after each `STATE_*` event. */
  readonly states: unknown[];
}

/** Runs `agent` once and records the run; never throws. */
export async function runPeer(
  agent: PeerAgent,
  parameters: Parameters<PeerAgent['runAgent']>[0] = {},
): Promise<PeerRun> {
  const events: PeerRun['events'] = [];
  const states: unknown[] = [];
  const warnings: string[] = [];
  let failure: Error | undefined;
  const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    warnings.push(args.map(String).join(' '));
  });
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    await agent.runAgent(parameters, {
      onEvent: ({ event }) => {
        events.push(event as unknown as PeerRun['events'][number]);
      },
      onStateChanged: ({ state }) => {
        states.push(structuredClone(state));
      },
      onRunFailed: ({ error: cause }) => {
        failure = cause;
        return { stopPropagation: true } as never;
      },
    });
  } catch (cause) {
    failure = cause as Error;
  } finally {
    warn.mockRestore();
    error.mockRestore();
  }
  return { events, failure, warnings, states };
}

/** The event types of a run, in order. */
export const typesOf = (run: PeerRun): string[] => run.events.map((event) => event.type);
