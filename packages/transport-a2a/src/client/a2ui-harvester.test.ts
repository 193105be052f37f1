/**
 * Where the harvester finds A2UI: status messages, a task's history and status, artifacts —
 * each once, user messages never, sequenced parts in order with a gap noticed.
 */
import { type Artifact, type Message, Role, type Task, TaskState } from '@a2a-js/sdk';
import { expect, it } from 'vitest';
import { textPart, update } from '../../test/agents.js';
import { A2UI_MIME_TYPE_ALIAS } from '../protocol/a2ui-extension.js';
import { createA2uiDataPart } from '../protocol/a2ui-parts.js';
import { A2uiHarvester } from './a2ui-harvester.js';

const message = (messageId: string, parts: Message['parts'], role = Role.ROLE_AGENT): Message => ({
  messageId,
  contextId: 'c',
  taskId: 't',
  role,
  parts,
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

it('reads a task’s history, status message and artifacts in order, each once, and skips user messages', () => {
  const harvester = new A2uiHarvester();
  const artifact: Artifact = {
    artifactId: 'ui',
    name: '',
    description: '',
    parts: [createA2uiDataPart(update('/c', 3))],
    metadata: undefined,
    extensions: [],
  };
  const alias = {
    ...createA2uiDataPart(update('/b', 2)),
    metadata: { mimeType: A2UI_MIME_TYPE_ALIAS },
    mediaType: '',
  };
  const task: Task = {
    id: 't',
    contextId: 'c',
    status: {
      state: TaskState.TASK_STATE_INPUT_REQUIRED,
      message: message('m2', [alias, textPart('done')]),
      timestamp: '',
    },
    history: [
      message(
        'u1',
        [createA2uiDataPart({ version: 'v0.9', action: { name: 'x' } })],
        Role.ROLE_USER,
      ),
      message('m1', [createA2uiDataPart(update('/a', 1))]),
      message('m2', [alias, textPart('done')]),
    ],
    artifacts: [artifact],
    metadata: undefined,
  };
  const first = harvester.task(task);
  expect(first.payloads).toEqual([update('/a', 1), update('/b', 2), update('/c', 3)]);
  expect(first.texts).toEqual(['done']);
  // The same task again (a resubscribe, a blocking answer): nothing twice.
  expect(harvester.task(task).payloads).toEqual([]);
  expect(harvester.sequenced).toBe(false);
});

it('applies sequenced parts once, in order, and reports a gap without applying past it', () => {
  const harvester = new A2uiHarvester();
  const part = (seq: number) => createA2uiDataPart(update('/n', seq), { seq });
  expect(harvester.message(message('a', [part(1), part(2)])).payloads).toHaveLength(2);
  // A repeat under another message id (a resubscribe's new update) is dropped by its seq.
  expect(harvester.message(message('b', [part(2), part(3)])).payloads).toEqual([update('/n', 3)]);
  const gap = harvester.message(message('c', [part(5)]));
  expect(gap).toMatchObject({ gap: true, payloads: [] });
  expect(harvester.sequence.last).toBe(3);
  // The message is not remembered, so it is read again once the missing one came.
  expect(harvester.message(message('d', [part(4)])).payloads).toEqual([update('/n', 4)]);
  expect(harvester.message(message('c', [part(5)])).payloads).toEqual([update('/n', 5)]);
  expect(harvester.sequenced).toBe(true);
  harvester.reset();
  expect(harvester.message(message('e', [part(1)])).payloads).toEqual([update('/n', 1)]);
});
