/**
 * The "killed between acknowledgement and apply" fault, for every binding (Node only): the
 * binding's server runs in a child process with {@link createApplyingAgent}, which appends each
 * action it applied to a log file before its turn ends; a client sends a burst of actions, the
 * child is killed with `SIGKILL` once some of them were acknowledged, and a new child is started
 * on the same port. An acknowledged action must be in the log (else it was lost), no action may
 * be there twice, and after the restart the client must come back and have its actions applied
 * exactly once. Nothing here imports vitest: {@link runKillTrial} returns figures, the caller
 * asserts (or prints) them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { A2uiAgent } from '../../agent/agent.js';
import { A2uiClient } from '../../client/a2ui-client.js';
import { A2uiError } from '../../errors/a2ui-error.js';
import { BASIC_CATALOG_ID } from '../../protocol/constants.js';
import type { ClientTransport } from '../../transport/client-transport.js';
import { README_NODE_ARGUMENTS } from './readme-blocks.js';

/** Environment variables a fault server script reads ({@link readFaultServerEnv}). */
export const FAULT_SERVER_ENV = {
  port: 'A2UI_FAULT_PORT',
  log: 'A2UI_FAULT_LOG',
  boot: 'A2UI_FAULT_BOOT',
} as const;

/** What a fault server script is asked to run. */
export interface FaultServerEnv {
  /** Port to listen on (0: any). */
  readonly port: number;
  /** The agent to host. */
  readonly agent: A2uiAgent;
}

/**
 * The agent of a kill trial: `onConnect` sends the surface `counter` with `/boot` set to the
 * server's boot number; `onAction` waits `applyDelayMs` (a queue builds up behind it, as behind a
 * real agent's work), appends `context.n` to `log` (synchronously: a kill cannot lose it), and
 * answers with `/last`.
 *
 * @param options - `log` (file path), `boot` (1, 2, …), `applyDelayMs` @default 2
 */
export function createApplyingAgent(options: {
  log: string;
  boot: number;
  applyDelayMs?: number;
}): A2uiAgent {
  const applyDelayMs = options.applyDelayMs ?? 2;
  return {
    onConnect(connection) {
      connection.send([
        { version: 'v0.9', createSurface: { surfaceId: 'counter', catalogId: BASIC_CATALOG_ID } },
        {
          version: 'v0.9',
          updateDataModel: { surfaceId: 'counter', path: '/boot', value: options.boot },
        },
      ]);
    },
    async onAction(connection, action) {
      await new Promise((resolve) => setTimeout(resolve, applyDelayMs));
      appendFileSync(options.log, `${String(action.context.n)}\n`);
      if (!connection.closed)
        connection.send({
          version: 'v0.9',
          updateDataModel: { surfaceId: 'counter', path: '/last', value: action.context.n },
        });
    },
  };
}

/** Reads the port and builds the agent a fault server script hosts, from its environment. */
export function readFaultServerEnv(env: NodeJS.ProcessEnv = process.env): FaultServerEnv {
  const log = env[FAULT_SERVER_ENV.log];
  if (!log) throw new Error(`${FAULT_SERVER_ENV.log} is not set.`);
  return {
    port: Number(env[FAULT_SERVER_ENV.port] ?? 0),
    agent: createApplyingAgent({ log, boot: Number(env[FAULT_SERVER_ENV.boot] ?? 1) }),
  };
}

/** A fault server in a child process. */
export interface FaultServer {
  readonly child: ChildProcess;
  /** The URL the script printed (its listener's `url`). */
  readonly url: string;
  readonly port: number;
  /** Sends `signal` and resolves once the child exited. */
  stop(signal: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `script` (a TypeScript file run with tsx) and resolves once it printed its URL.
 * @throws Error when the child exits first
 */
export async function startFaultServer(
  script: string,
  env: { port: number; log: string; boot: number },
): Promise<FaultServer> {
  const child = spawn(process.execPath, [...README_NODE_ARGUMENTS, script], {
    env: {
      ...process.env,
      [FAULT_SERVER_ENV.port]: String(env.port),
      [FAULT_SERVER_ENV.log]: env.log,
      [FAULT_SERVER_ENV.boot]: String(env.boot),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fault server ${script} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return {
    child,
    url,
    port: Number(new URL(url).port),
    async stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Options of {@link runKillTrial}. */
export interface KillTrialOptions {
  /** The binding's fault server script ({@link readFaultServerEnv}, prints its URL). */
  readonly script: string;
  /** A client transport to the server at `url`, reconnecting quickly. */
  connect(url: string): ClientTransport;
  /** Actions sent in the burst before the kill, and again after the restart. @default 20 */
  readonly actions?: number;
  /** The child is killed once this many actions were acknowledged. @default 3 */
  readonly killAfterAcks?: number;
}

/** What one kill trial saw. */
export interface KillTrialFigures {
  /** Actions sent before the kill. */
  readonly actions: number;
  /** Of those, acknowledged (`send` resolved). */
  readonly acked: number;
  /** Applied by the killed server (in its log). */
  readonly applied: number;
  /** Acknowledged but not applied. Must be 0. */
  readonly lost: number;
  /** Applied more than once, before or after the restart. Must be 0. */
  readonly doubled: number;
  /** Rejected (`send` failed) although applied. Must be 0. */
  readonly toldFailedButApplied: number;
  /**
   * Rejected with `OUTCOME_UNKNOWN`: the message went out and its answer died with the server, so
   * the client says it may or may not have been applied (never that it failed).
   */
  readonly toldUnknown: number;
  /** Actions sent after the restart; each must be acknowledged and applied once. */
  readonly afterRestart: number;
  /** Of those, acknowledged and applied exactly once. */
  readonly afterRestartApplied: number;
  /** Whether the client saw a reset (the restarted server did not know its connection). */
  readonly reset: boolean;
}

const action = (n: number) => ({
  version: 'v0.9' as const,
  action: {
    name: 'apply',
    surfaceId: 'counter',
    sourceComponentId: 'root',
    timestamp: new Date().toISOString(),
    context: { n },
  },
});

function readLog(path: string): number[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);
}

/** Counts values that occur more than once. */
function countDoubled(values: readonly number[]): number {
  const seen = new Map<number, number>();
  for (const value of values) seen.set(value, (seen.get(value) ?? 0) + 1);
  return [...seen.values()].filter((count) => count > 1).length;
}

/**
 * One trial: start the server, connect, send a burst of actions, `SIGKILL` the server after
 * `killAfterAcks` acknowledgements, start a new one on the same port, wait for the client to be
 * back on it, send another burst and wait for every acknowledgement.
 */
export async function runKillTrial(options: KillTrialOptions): Promise<KillTrialFigures> {
  const actions = options.actions ?? 20;
  const killAfterAcks = Math.min(options.killAfterAcks ?? 3, actions);
  const dir = mkdtempSync(join(tmpdir(), 'a2ui-kill-'));
  const logs = [join(dir, 'boot-1.log'), join(dir, 'boot-2.log')] as const;
  for (const log of logs) writeFileSync(log, '');
  let first: FaultServer | undefined;
  let second: FaultServer | undefined;
  let client: A2uiClient | undefined;
  try {
    first = await startFaultServer(options.script, { port: 0, log: logs[0], boot: 1 });
    client = new A2uiClient({ transport: options.connect(first.url) });
    let reset = false;
    client.subscribe((event) => {
      if (event.type === 'reset') reset = true;
    });
    void client.connect().catch(() => {});
    const boot = () => client!.processor.getSurface('counter')?.dataModel.get('/boot');
    await client.until(() => boot() === 1);

    const acked: number[] = [];
    const failed: number[] = [];
    const unknown: number[] = [];
    const victim = first;
    let kill!: () => void;
    const killed = new Promise<void>((resolve) => {
      kill = resolve;
    });
    const sends = Array.from({ length: actions }, (_, n) =>
      client!.send(action(n)).then(
        () => {
          acked.push(n);
          if (acked.length === killAfterAcks) {
            // At once, in the same task as the acknowledgement: the server is mid-burst.
            victim.child.kill('SIGKILL');
            kill();
          }
        },
        (error: unknown) => {
          if (A2uiError.isInstance(error) && error.code === 'OUTCOME_UNKNOWN') unknown.push(n);
          else if (A2uiError.isInstance(error) && error.code === 'CONNECTION_CLOSED')
            failed.push(n);
          else throw error;
        },
      ),
    );
    // A burst that ends without enough acknowledgements (everything refused) ends the wait too.
    await Promise.race([killed, Promise.allSettled(sends)]);
    await first.stop('SIGKILL');
    const appliedBefore = readLog(logs[0]);

    second = await startFaultServer(options.script, { port: first.port, log: logs[1], boot: 2 });
    await client.until(() => boot() === 2);
    await Promise.all(sends);

    const later = Array.from({ length: actions }, (_, index) => 1_000 + index);
    await Promise.all(later.map((n) => client!.send(action(n))));
    const appliedAfter = readLog(logs[1]);
    const applied = new Set(appliedBefore);
    const appliedAnywhere = new Set([...appliedBefore, ...appliedAfter]);
    return {
      actions,
      acked: acked.length,
      applied: applied.size,
      lost: acked.filter((n) => !appliedAnywhere.has(n)).length,
      doubled: countDoubled([...appliedBefore, ...appliedAfter]),
      toldFailedButApplied: failed.filter((n) => applied.has(n)).length,
      toldUnknown: unknown.length,
      afterRestart: later.length,
      afterRestartApplied: later.filter((n) => appliedAfter.filter((m) => m === n).length === 1)
        .length,
      reset,
    };
  } finally {
    await client?.close();
    await first?.stop('SIGKILL');
    await second?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures of {@link runKillTrials}: sums over every trial. */
export interface KillTrialTotals extends Omit<KillTrialFigures, 'reset'> {
  readonly trials: number;
  /** Trials whose client was reset onto a new connection by the restarted server. */
  readonly resets: number;
}

/**
 * Runs `trials` kill trials one after another, killing after 1 to 10 acknowledgements in turn,
 * and sums their figures. For scripts that measure; a test runs {@link runKillTrial}.
 */
export async function runKillTrials(
  options: Omit<KillTrialOptions, 'killAfterAcks'> & { readonly trials: number },
): Promise<KillTrialTotals> {
  const totals = {
    trials: 0,
    resets: 0,
    actions: 0,
    acked: 0,
    applied: 0,
    lost: 0,
    doubled: 0,
    toldFailedButApplied: 0,
    toldUnknown: 0,
    afterRestart: 0,
    afterRestartApplied: 0,
  };
  for (let trial = 0; trial < options.trials; trial++) {
    const { reset, ...figures } = await runKillTrial({
      ...options,
      killAfterAcks: 1 + (trial % 10),
    });
    totals.trials++;
    if (reset) totals.resets++;
    for (const key of Object.keys(figures) as Array<keyof typeof figures>)
      totals[key] += figures[key];
  }
  return totals;
}
