// A queue URL's database number: checked for its form, then asked of the Redis itself, which
// knows how many databases it has (its `databases` setting, 16 by default). ioredis only emits an
// 'error' event for a SELECT that fails and goes on in database 0, so redis://HOST:PORT/99 used to
// put a sweep's jobs silently in database 0.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/model/errors.js';
import { checkQueueReachable, parseQueueUrl } from '../../src/queue/connection.js';
import { NEEDS_REDIS, REDIS_AVAILABLE, startRedis } from '../fixtures/redis-server.js';
import type { RedisServer } from '../fixtures/redis-server.js';

describe('a queue URL', () => {
  it('names its database by a whole number or not at all', () => {
    expect(parseQueueUrl('redis://127.0.0.1:6379/7')).toBe('redis://127.0.0.1:6379/7');
    expect(parseQueueUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    for (const db of ['-1', '1.5', 'x', '99999999999999999999']) {
      expect(() => parseQueueUrl(`redis://127.0.0.1:6379/${db}`), db).toThrow(UserError);
    }
  });
});

describe.skipIf(!REDIS_AVAILABLE)(`a queue URL on a running Redis${NEEDS_REDIS}`, () => {
  let redis: RedisServer;
  let base: string;
  beforeAll(async () => {
    redis = await startRedis();
    base = redis.url.replace(/\/0$/, '');
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('is refused when the Redis has no such database, not run in database 0', async () => {
    await expect(checkQueueReachable(`${base}/15`)).resolves.toBeUndefined();
    await expect(checkQueueReachable(`${base}/99`)).rejects.toThrow(
      new UserError(`--queue ${base}/99: the Redis there has no database 99 (ERR DB index is out of range)`),
    );
  });
});
