// A queue while its configuration file is being read: QueueConfig's settings, writable and
// starting at the model's defaults, with its path and the children found so far.

import { queueConfig } from '../../model/queues.js';
import type { QueueConfig } from '../../model/queues.js';

export type QueueDraft = { -readonly [K in Exclude<keyof QueueConfig, 'queues'>]: QueueConfig[K] } & {
  readonly path: string;
  readonly children: QueueDraft[];
};

export function queueDraft(name: string, path: string): QueueDraft {
  const { queues: _none, ...settings } = queueConfig(name);
  return { ...settings, path, children: [] };
}

export function freezeQueueDraft(draft: QueueDraft): QueueConfig {
  const { path: _path, children, ...settings } = draft;
  return { ...settings, queues: children.map(freezeQueueDraft) };
}
