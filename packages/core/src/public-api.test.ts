import { expect, it } from 'vitest';
import * as host from './host/index.js';
import * as core from './index.js';
import * as link from './link/index.js';
import * as testing from './testing/index.js';

// Adding, renaming or removing a public export changes these lists: update them on purpose
// (`pnpm exec vitest run --project core -u`) and say so in the change.
it('exports exactly the named public API', () => {
  expect(Object.keys(core).sort()).toMatchSnapshot();
  expect(Object.keys(testing).sort()).toMatchSnapshot();
});

it("keeps the binding author's API out of the app author's entry point", () => {
  expect(Object.keys(host).sort()).toMatchSnapshot();
  expect(Object.keys(link).sort()).toMatchSnapshot();
  const bindingNames = [...Object.keys(host), ...Object.keys(link)];
  expect(bindingNames.filter((name) => name in core)).toEqual([]);
});
