// A parser worker's post as it crosses to the main thread: its messages as one JSON text, with
// the arrays beside it (full batches' arrays transferred, small batches' copied into one shared
// buffer: packed-batches.ts). Posted as they are, the messages, a few dozen small objects per
// file (recognition, strings, outcome and stats), are structured-cloned one by one; as one text
// they are one string to copy, and the main thread, which has time to spare while the workers
// read, parses it. Timed call by call on 10,000 small files, a post cost about 0.07 ms; most of
// the 0.4 s a worker still spends posting is the few posts (about 6%) that took over 1 ms, which
// looked like the thread being descheduled on a loaded machine, not the encoding.

import { batchBuffers } from '../../model/rm-event-batch.js';
import type { RmEventBatch } from '../../model/rm-event-batch.js';
import { packable, packBatches } from './packed-batches.js';
import type { PackedBatch } from './packed-batches.js';
import type { FromParseWorker } from './parse-protocol.js';

/** What a worker posts at once: its messages, in order, of one file or several. */
export interface WorkerPost {
  /** The messages as JSON, each batch in it as its index in `batches` or its place in `packed`. */
  readonly text: string;
  /** The full batches, their arrays transferred. */
  readonly batches: readonly RmEventBatch[];
  /** The small batches' arrays, or null when there are none. */
  readonly packed: ArrayBuffer | null;
}

/** A message as written in a post's text. */
type PostedMessage =
  | Exclude<FromParseWorker, { type: 'batch' } | { type: 'packed' }>
  | { readonly type: 'batch'; readonly index: number }
  | { readonly type: 'packed'; readonly batch: Omit<PackedBatch, 'buffer'> };

/** The messages (no 'packed' ones: small batches are packed here) as a post, and the buffers it transfers. */
export function encodePost(messages: readonly FromParseWorker[]): { post: WorkerPost; transfer: ArrayBuffer[] } {
  const small: RmEventBatch[] = [];
  for (const message of messages) if (message.type === 'batch' && packable(message.batch)) small.push(message.batch);
  const packed = small.length > 0 ? packBatches(small) : [];
  const batches: RmEventBatch[] = [];
  const transfer: ArrayBuffer[] = [];
  let nextPacked = 0;
  const posted = messages.map((message): PostedMessage => {
    if (message.type === 'packed') throw new Error('a packed batch is posted as its batch');
    if (message.type !== 'batch') return message;
    if (packable(message.batch)) {
      const { at, rows, strings, rejects, fileBytesRead } = packed[nextPacked++]!;
      return { type: 'packed', batch: { at, rows, strings, rejects, fileBytesRead } };
    }
    transfer.push(...batchBuffers(message.batch));
    return { type: 'batch', index: batches.push(message.batch) - 1 };
  });
  const buffer = packed.length > 0 ? packed[0]!.buffer : null;
  if (buffer) transfer.push(buffer);
  return { post: { text: JSON.stringify(posted), batches, packed: buffer }, transfer };
}

/** The messages of a post, in order, each batch with its arrays (a small one's as views of the shared buffer, to unpack). */
export function decodePost(post: WorkerPost): FromParseWorker[] {
  const posted = JSON.parse(post.text) as PostedMessage[];
  return posted.map((message): FromParseWorker => {
    if (message.type === 'batch') return { type: 'batch', batch: post.batches[message.index]! };
    if (message.type === 'packed') return { type: 'packed', batch: { ...message.batch, buffer: post.packed! } };
    return message;
  });
}
