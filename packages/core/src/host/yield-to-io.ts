/**
 * One turn of the event loop, after pending I/O: `setImmediate` where the runtime has it (Node,
 * where the servers and the tests that need it run), else a zero timeout. Internal to core.
 */
export const yieldToIo = (): Promise<void> =>
  new Promise((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );
