/**
 * A `TaskStore` that keeps the last messages of each task's history only. The SDK stores a task
 * after every event by loading and saving it whole, and adds each status update's message to its
 * history — so an A2UI task, which lives as long as its session and carries every streamed
 * message in its history, would cost more per event the longer it runs (quadratic over the
 * session). The A2UI messages themselves are in the session's replay log, which is what resumes a
 * client; the history keeps what a `GetTask` or a stock client's resubscribe needs recently.
 */
import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';

/**
 * Wraps `inner` so that a task is saved with the last `maxHistoryMessages` messages of its history.
 *
 * @param inner - the store that keeps the tasks (an `InMemoryTaskStore`, a database store)
 * @param maxHistoryMessages - messages kept per task (at least 1)
 *
 * @example
 * ```ts
 * const taskStore = boundTaskHistory(new InMemoryTaskStore(), 20);
 * ```
 */
export function boundTaskHistory(inner: TaskStore, maxHistoryMessages: number): TaskStore {
  const max = Math.max(1, Math.floor(maxHistoryMessages));
  return {
    load: (taskId: string, context: ServerCallContext) => inner.load(taskId, context),
    save(task: Task, context: ServerCallContext) {
      const history = task.history ?? [];
      return inner.save(
        history.length > max ? { ...task, history: history.slice(history.length - max) } : task,
        context,
      );
    },
    list: (params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> =>
      inner.list(params, context),
  };
}
