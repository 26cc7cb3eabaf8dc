// A file's read (parse-job.ts) given the bytes its start read whole (file-start.ts): those bytes
// are read, not the file again. Files written for this test.

import { appendFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileStarts } from '../../../src/ingest/rmlog/file-start.js';
import { readJob, recogniseJob } from '../../../src/ingest/rmlog/parse-job.js';
import type { ParseJob } from '../../../src/ingest/rmlog/parse-job.js';
import type { RmEventBatch } from '../../../src/model/rm-event-batch.js';
import { tempFile } from '../../helpers/files.js';

const ENTRY = (time: string) => `2023-11-14 ${time},123 INFO org.apache.hadoop.yarn.server.resourcemanager.ResourceManager: hello\n`;

describe('readJob', () => {
  it('reads the content its job holds; bytes appended to the file since its start are left for a later ingest', async () => {
    const text = `${ENTRY('22:13:20')}${ENTRY('22:13:21')}`;
    const path = tempFile('parse-job-content.log', text);
    const [start] = await fileStarts([path]);
    appendFileSync(path, ENTRY('22:13:22'));
    const job: ParseJob = { path, gzip: false, sizeBytes: start!.sizeBytes, content: new Uint8Array(start!.head), stored: [] };
    const batches: RmEventBatch[] = [];
    const outcome = await readJob(job, await recogniseJob(job), (batch) => batches.push(batch));
    expect(outcome.stats.entries).toBe(2);
    expect(outcome.stats.completeBytes).toBe(text.length);
    expect(outcome.stats.fileBytes).toBe(text.length);
    expect(outcome.sizeBytes).toBe(text.length);
  });

  it('reads the file when its job holds no content', async () => {
    const text = `${ENTRY('22:13:20')}${ENTRY('22:13:21')}`;
    const path = tempFile('parse-job-file.log', text);
    const [start] = await fileStarts([path]);
    appendFileSync(path, ENTRY('22:13:22'));
    const job: ParseJob = { path, gzip: false, sizeBytes: start!.sizeBytes, stored: [] };
    const outcome = await readJob(job, await recogniseJob(job), () => undefined);
    expect(outcome.stats.entries).toBe(3);
  });
});
