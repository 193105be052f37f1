/**
 * Regenerates the precompiled validators in `src/validation/generated/` from the official schemas
 * in `src/validation/schemas/`. Run with `pnpm --filter @a2ui-ts/core generate` after changing a
 * schema, the Ajv version or the generator; commit the result (a test fails when it is stale).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateBuiltinValidatorModules } from '../src/validation/generate-builtin-validators.js';

const outputDirectory = fileURLToPath(new URL('../src/validation/generated/', import.meta.url));
const files = generateBuiltinValidatorModules();

mkdirSync(outputDirectory, { recursive: true });
for (const name of readdirSync(outputDirectory)) {
  if (!(name in files)) rmSync(join(outputDirectory, name));
}
for (const [name, text] of Object.entries(files)) {
  writeFileSync(join(outputDirectory, name), text);
  console.log(`${name.padEnd(14)} ${(Buffer.byteLength(text) / 1024).toFixed(1).padStart(7)} KiB`);
}
