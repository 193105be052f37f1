/** Script handlers as real processes: input modes, timeouts that kill, crashes, output bounds. */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeService, type StartedService, startService } from '../../test/service-fixture.js';

const script = (id: string, args: string[], extra: Record<string, unknown> = {}) => ({
  id,
  method: 'mutation',
  handler: { type: 'script', command: process.execPath, args, ...extra },
});

/**
 * Whether `pid` still runs: a killed process whose parent is gone stays a zombie until PID 1
 * reaps it, which a container's PID 1 may never do.
 */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

// Long enough for Node to start and write its pid on a busy machine before it is killed.
const HANG_TIMEOUT_MS = 5_000;

let service: StartedService;
beforeAll(async () => {
  const dir = await makeService(
    {
      lavs: '1.0',
      name: 'scripts',
      version: '1.0.0',
      endpoints: [
        script('echoStdin', ['echo.mjs', 'stdin'], { input: 'stdin' }),
        script('echoArgs', ['echo.mjs', 'args', '{{name}}', '{{nested.n}}', '{{missing}}'], {
          input: 'args',
        }),
        script('echoEnv', ['echo.mjs', 'env'], { input: 'env', env: { GREETING: 'hi' } }),
        // The manifest's own `handler.timeout` (not a test timeout).
        script('hang', ['hang.mjs'], { timeout: HANG_TIMEOUT_MS }),
        script('orphan', ['orphan.mjs'], { timeout: HANG_TIMEOUT_MS }),
        script('crash', ['crash.mjs']),
        script('chatty', ['chatty.mjs']),
        script('notJson', ['-e', 'console.log("hello")']),
        {
          ...script('badOutput', ['-e', 'console.log(JSON.stringify({ id: "one" }))']),
          schema: { output: { type: 'object', properties: { id: { type: 'number' } } } },
        },
        {
          ...script('missingCommand', []),
          handler: { type: 'script', command: 'no-such-command-lavs' },
        },
      ],
      permissions: { maxExecutionTime: 60_000 },
    },
    {
      'echo.mjs': `
        const chunks = [];
        if (process.argv[2] === 'stdin') for await (const c of process.stdin) chunks.push(c);
        const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(NAME|NESTED_N|GREETING|SECRET_TOKEN)$/.test(k)));
        console.log(JSON.stringify({ argv: process.argv.slice(3), stdin: Buffer.concat(chunks).toString(), env }));
      `,
      // Writes its pid (and its child's) before hanging, so the test can see both are gone.
      'hang.mjs': `
        import { spawn } from 'node:child_process';
        import { writeFileSync } from 'node:fs';
        const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
        writeFileSync('pids.json', JSON.stringify([process.pid, child.pid]));
        process.on('SIGTERM', () => {});
        setInterval(() => {}, 1000);
      `,
      // Exits at once, leaving a child that holds its stdout open.
      'orphan.mjs': `
        import { spawn } from 'node:child_process';
        import { writeFileSync } from 'node:fs';
        const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });
        writeFileSync('orphan.json', JSON.stringify(child.pid));
        child.unref();
        process.exit(0);
      `,
      'crash.mjs': `console.error('boom: the disk is on fire'); process.exit(3);`,
      'chatty.mjs': `process.stdout.write('['); for (;;) process.stdout.write('1,'.repeat(10000));`,
    },
  );
  process.env.SECRET_TOKEN = 'do-not-leak';
  service = await startService(dir, { maxOutputBytes: 65_536, killGraceMs: 200 });
});
afterAll(async () => {
  delete process.env.SECRET_TOKEN;
  await service.close();
});

it('passes the input on stdin as JSON', async () => {
  const { result } = await service.call('echoStdin', { text: 'hi' });
  expect(result).toEqual({ argv: [], stdin: '{"text":"hi"}', env: {} });
});

it('fills {{templates}} in args, without a shell', async () => {
  const { result } = await service.call('echoArgs', {
    name: '$(touch pwned); echo',
    nested: { n: 2 },
  });
  expect(result.argv).toEqual(['$(touch pwned); echo', '2', '']);
  await expect(readFile(join(service.dir, 'pwned'))).rejects.toThrow();
});

it('passes the input as upper-case env vars, never the runtime secrets', async () => {
  const { result } = await service.call('echoEnv', { name: 'ada', nested: { n: 1 } });
  expect(result.env).toEqual({ NAME: 'ada', NESTED_N: '1', GREETING: 'hi' });
});

it('kills a script past its timeout, its children too, and answers -32002', async () => {
  const { error } = await service.call('hang');
  expect(error).toEqual({
    code: -32002,
    message: 'Timeout: hang ran past 5000 ms and was stopped',
    data: { permission: 'maxExecutionTime', timeoutMs: HANG_TIMEOUT_MS },
  });
  const pids = JSON.parse(await readFile(join(service.dir, 'pids.json'), 'utf8')) as number[];
  for (const pid of pids) expect(isRunning(pid)).toBe(false);
});

it('stops the children a finished script left holding its output, past its timeout', async () => {
  expect((await service.call('orphan')).error).toMatchObject({ code: -32002 });
  const pid = JSON.parse(await readFile(join(service.dir, 'orphan.json'), 'utf8')) as number;
  expect(isRunning(pid)).toBe(false);
});

it('reports a crashed script as -32003 without its stderr, logs the stderr, and keeps serving', async () => {
  const { error } = await service.call('crash');
  expect(error).toEqual({
    code: -32003,
    message: 'Handler error: the script exited with 3',
    data: { exitCode: 3 },
  });
  expect(service.audit.at(-1)).toMatchObject({
    endpoint: 'crash',
    outcome: 'error',
    code: 'HANDLER_ERROR',
    detail: 'boom: the disk is on fire\n',
  });
  expect((await service.call('echoStdin', {})).result).toBeDefined();
});

it('stops a script whose output passes maxOutputBytes', async () => {
  const { error } = await service.call('chatty');
  expect(error).toEqual({
    code: -32003,
    message: 'Handler error: output is larger than 65536 bytes',
    data: { maxOutputBytes: 65_536 },
  });
});

it('answers -32003 for output that is not JSON and for a command that does not exist', async () => {
  expect((await service.call('notJson')).error).toEqual({
    code: -32003,
    message: 'Handler error: the script did not print JSON',
  });
  expect((await service.call('missingCommand')).error).toEqual({
    code: -32003,
    message: 'Handler error: the script could not be started',
  });
});

it('answers -32603 for output that breaks schema.output', async () => {
  expect((await service.call('badOutput')).error).toEqual({
    code: -32603,
    message: 'Internal error: Invalid output from handler',
    data: { errors: [{ pointer: '/id', message: 'must be number' }] },
  });
});

it("confines a Node script to its fileAccess with Node's permission model: -32001 past it", async () => {
  const dir = await makeService(
    {
      lavs: '1.0',
      name: 'confined',
      version: '1.0.0',
      endpoints: [
        {
          ...script('readData', ['read.mjs', 'data/todos.json']),
          handler: { type: 'script', command: 'node', args: ['read.mjs', 'data/todos.json'] },
        },
        {
          ...script('readSecret', []),
          handler: { type: 'script', command: 'node', args: ['read.mjs', 'secrets/key.txt'] },
        },
        {
          ...script('writeOutside', []),
          handler: { type: 'script', command: 'node', args: ['write.mjs', 'outside.json'] },
        },
        {
          ...script('spawn', []),
          handler: { type: 'script', command: 'node', args: ['spawn.mjs'] },
        },
      ],
      permissions: { fileAccess: ['./data/**/*.json'], maxExecutionTime: 60_000 },
    },
    {
      'read.mjs': `import { readFileSync } from 'node:fs'; console.log(JSON.stringify(readFileSync(process.argv[2], 'utf8')));`,
      'write.mjs': `import { writeFileSync } from 'node:fs'; writeFileSync(process.argv[2], '{}'); console.log('null');`,
      'spawn.mjs': `import { execFileSync } from 'node:child_process'; execFileSync('cat', ['secrets/key.txt']); console.log('null');`,
      'data/todos.json': '[]',
      'secrets/key.txt': 'hunter2',
    },
  );
  const confined = await startService(dir);
  try {
    expect((await confined.call('readData')).result).toBe('[]');
    for (const endpoint of ['readSecret', 'writeOutside', 'spawn']) {
      const body = await confined.call(endpoint);
      expect(body.error, endpoint).toMatchObject({
        code: -32001,
        data: { permission: 'fileAccess' },
      });
      expect(JSON.stringify(body)).not.toContain('hunter2');
    }
    expect(await readFile(join(dir, 'secrets/key.txt'), 'utf8')).toBe('hunter2');
    await expect(readFile(join(dir, 'outside.json'), 'utf8')).rejects.toThrow();
  } finally {
    await confined.close();
  }
});

it('holds a script to maxMemory: one allocating past it is killed and answered -32001, the service keeps serving', async () => {
  const MAX_MEMORY = 128 * 1024 * 1024;
  const dir = await makeService(
    {
      lavs: '1.0',
      name: 'memory',
      version: '1.0.0',
      endpoints: [
        // Buffers live outside V8's heap: only the OS cap can stop them.
        script('hog', ['allocate.mjs', String(1024 * 1024 * 1024)]),
        script('modest', ['allocate.mjs', String(8 * 1024 * 1024)]),
        {
          ...script('missing', []),
          handler: { type: 'script', command: 'no-such-command-lavs' },
        },
      ],
      permissions: { maxMemory: MAX_MEMORY, maxExecutionTime: 60_000 },
    },
    {
      'allocate.mjs': `
        const keep = [];
        let allocated = 0;
        while (allocated < Number(process.argv[2])) {
          keep.push(Buffer.alloc(16 * 1024 * 1024, 1));
          allocated += 16 * 1024 * 1024;
        }
        console.log(JSON.stringify({ allocated }));
      `,
    },
  );
  const capped = await startService(dir);
  try {
    expect((await capped.call('hog')).error).toEqual({
      code: -32001,
      message: 'Permission denied: hog used more than maxMemory',
      data: { permission: 'maxMemory', maxMemory: MAX_MEMORY },
    });
    expect(capped.audit.at(-1)).toMatchObject({
      endpoint: 'hog',
      outcome: 'error',
      code: 'PERMISSION_DENIED',
      permission: 'maxMemory',
    });
    expect((await capped.call('modest')).result).toEqual({ allocated: 16 * 1024 * 1024 });
    expect((await capped.call('missing')).error).toEqual({
      code: -32003,
      message: 'Handler error: the script could not be started',
    });
  } finally {
    await capped.close();
  }
});
