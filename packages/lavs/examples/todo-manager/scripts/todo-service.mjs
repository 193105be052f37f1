// The todo-manager's script handler (LAVS spec §4.7): `list` prints every todo, `add` reads the
// new todo from stdin. Data lives in data/todos.json, relative to the service directory.
import { readFileSync, writeFileSync } from 'node:fs';

const file = 'data/todos.json';
const read = () => JSON.parse(readFileSync(file, 'utf8'));
const action = process.argv[2];

if (action === 'list') {
  process.stdout.write(JSON.stringify(read()));
} else if (action === 'add') {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const todos = read();
  const todo = {
    id: todos.reduce((max, t) => Math.max(max, t.id), 0) + 1,
    text: input.text,
    done: false,
    priority: input.priority,
    createdAt: new Date().toISOString(),
  };
  writeFileSync(file, JSON.stringify([...todos, todo], null, 2));
  process.stdout.write(JSON.stringify(todo));
} else {
  process.stderr.write(`unknown action ${action}\n`);
  process.exit(2);
}
