import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Date-time conversions show zoned values in local time; pin it so expectations are exact.
process.env.TZ = 'UTC';

afterEach(() => {
  cleanup();
});

// Markdown renders synchronously in these tests, as it does in Node through the package index
// (which hands `marked` over); `markdown-lazy-load.test.tsx` renders before it loads.
import '../src/markdown/markdown-parser-provided.js';
