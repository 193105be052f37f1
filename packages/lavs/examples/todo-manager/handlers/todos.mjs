// The todo-manager's function handlers: each gets `(input, context)` and touches the data only
// through `context.files`, which the runtime checks against `permissions.fileAccess`.
const FILE = 'data/todos.json';

export async function listTodos(_input, { files }) {
  return JSON.parse(await files.readFile(FILE));
}

export async function toggleTodo({ id }, { files }) {
  const todos = JSON.parse(await files.readFile(FILE));
  const todo = todos.find((t) => t.id === id);
  if (!todo) throw new Error(`No todo ${id}`);
  todo.done = !todo.done;
  await files.writeFile(FILE, JSON.stringify(todos, null, 2));
  return todo;
}

export async function deleteTodo({ id }, { files }) {
  const todos = JSON.parse(await files.readFile(FILE));
  const left = todos.filter((t) => t.id !== id);
  await files.writeFile(FILE, JSON.stringify(left, null, 2));
  return { deleted: left.length < todos.length };
}
