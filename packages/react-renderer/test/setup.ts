import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Date-time conversions show zoned values in local time; pin it so expectations are exact.
process.env.TZ = 'UTC';

afterEach(() => {
  cleanup();
});
