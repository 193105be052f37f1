/**
 * `maxMemory` against a script that hands its allocation to a child process: the cap
 * (`RLIMIT_DATA`) is inherited, so the child is refused memory past it too, and the call is
 * answered -32001 `maxMemory` without the child's stack trace; the service keeps serving.
 * Real processes, real HTTP server on 127.0.0.1 port 0.
 */
import { expect, it } from 'vitest';
import { makeService, startService } from '../../test/service-fixture.js';
import { hasPrlimit } from './script-memory-cap.js';

const MAX_MEMORY = 128 * 1024 * 1024;
const script = (id: string, args: string[]) => ({
  id,
  method: 'mutation',
  handler: { type: 'script', command: process.execPath, args },
});

it.runIf(await hasPrlimit())(
  'a child that allocates past maxMemory is refused it too: -32001, no stack trace, the service keeps serving',
  async () => {
    const dir = await makeService(
      {
        lavs: '1.0',
        name: 'memory-children',
        version: '1.0.0',
        endpoints: [script('forkHog', ['fork-hog.mjs']), script('ok', ['-e', 'console.log(1)'])],
        permissions: { maxMemory: MAX_MEMORY, maxExecutionTime: 60_000 },
      },
      {
        // The child allocates 1 GB in Buffers (outside V8's heap); the parent passes on its
        // stderr and exit code, as a shell wrapper would.
        'fork-hog.mjs': `
          import { spawnSync } from 'node:child_process';
          const child = spawnSync(process.execPath, ['-e',
            'const k = []; for (let i = 0; i < 64; i++) k.push(Buffer.alloc(16 * 1024 * 1024, 1)); console.log(1)'],
            { stdio: ['ignore', 'pipe', 'inherit'] });
          if (child.status !== 0) process.exit(child.status ?? 1);
          console.log(JSON.stringify({ allocated: true }));
        `,
      },
    );
    const capped = await startService(dir);
    try {
      const body = await capped.call('forkHog');
      expect(body.error).toEqual({
        code: -32001,
        message: 'Permission denied: forkHog used more than maxMemory',
        data: { permission: 'maxMemory', maxMemory: MAX_MEMORY },
      });
      expect(JSON.stringify(body)).not.toMatch(/RangeError|\n\s+at |allocation failed/);
      expect((await capped.call('ok')).result).toBe(1);
    } finally {
      await capped.close();
    }
  },
);
