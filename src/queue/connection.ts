// The Redis a distributed sweep runs through, named by a URL (redis://HOST:PORT/DB). BullMQ and
// its Redis client retry a lost connection for ever, which suits a worker waiting out a Redis
// restart but not a user who typed the wrong port: the URL is checked once, up front, with a
// short timeout, and a Redis that does not answer is a one-line error.

// ioredis is loaded when a queue is used, not by every command that starts.
import { UserError } from '../model/errors.js';

const CHECK_TIMEOUT_MS = 3_000;

/** A queue URL, checked for its form: `redis://` or `rediss://`, a host, a database number if any. */
export function parseQueueUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(`--queue ${url} is not a URL: give redis://HOST:PORT/DB, e.g. redis://127.0.0.1:6379/0`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new UserError(`--queue ${url}: only redis:// and rediss:// URLs are supported (BullMQ on Redis)`);
  }
  if (parsed.hostname === '') throw new UserError(`--queue ${url} names no host`);
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !(/^\d+$/.test(db) && Number.isSafeInteger(Number(db)))) {
    throw new UserError(`--queue ${url}: the database after the port must be a whole number (0-15 on a stock Redis), not ${db}`);
  }
  return url;
}

/** The database number a queue URL names, or null for none (database 0). */
function queueDatabase(url: string): number | null {
  const db = new URL(url).pathname.replace(/^\//, '');
  return db === '' ? null : Number(db);
}

function firstLine(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

/** Connection options for BullMQ: reconnect for ever, never fail a command for want of one. */
export function queueConnection(url: string): { url: string; maxRetriesPerRequest: null } {
  return { url, maxRetriesPerRequest: null };
}

/** Fail with one line unless a Redis answers PING at `url` within a few seconds. */
export async function checkQueueReachable(url: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CHECK_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // Errors are reported by connect()/ping() below; without a listener ioredis would also log them.
  client.on('error', () => undefined);
  try {
    try {
      await client.connect();
      await client.ping();
    } catch (error) {
      throw new UserError(`cannot reach the queue at ${url}: ${firstLine(error)}`);
    }
    // A database the server does not have (past its `databases` setting, 16 by default): ioredis
    // only reports the failed SELECT as an 'error' event and goes on in database 0, so BullMQ
    // would silently share database 0 with whatever else uses it. Asked here, it is refused.
    const db = queueDatabase(url);
    if (db !== null) {
      try {
        await client.select(db);
      } catch (error) {
        throw new UserError(`--queue ${url}: the Redis there has no database ${db} (${firstLine(error)})`);
      }
    }
  } finally {
    client.disconnect();
  }
}
