/**
 * Vitest global setup of this package: one `redis-server` on a free port for every test file
 * (each file uses its own key prefix); its URL is provided as `redisUrl`.
 */
import type { TestProject } from 'vitest/node';
import { startRedisServer } from '../src/testing/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = await startRedisServer();
  project.provide('redisUrl', redis.url);
  return () => redis.stop();
}
