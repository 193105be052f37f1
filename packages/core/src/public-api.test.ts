import { expect, it } from 'vitest';
import * as core from './index.js';
import * as testing from './testing/index.js';

// Adding, renaming or removing a public export changes these lists: update them on purpose
// (`pnpm exec vitest run --project core -u`) and say so in the change.
it('exports exactly the named public API', () => {
  expect(Object.keys(core).sort()).toMatchSnapshot();
  expect(Object.keys(testing).sort()).toMatchSnapshot();
});
