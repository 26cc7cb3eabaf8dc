// `rmreplay worker`: replay runs from a distributed sweep's queue until stopped (SIGINT or
// SIGTERM: the run in progress is finished and written first, status 0; a second signal leaves at
// once, status 128 + its number) or its Redis has been gone too long (status 3). Quietly: one line.

import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { print } from '../context.js';
import { LostDependency } from '../../api/command-line.js';
import { positiveWholeNumber } from '../options.js';

interface WorkerOptions {
  queue: string;
  results: string;
  concurrency?: number;
  lockSeconds?: number;
  queueLostSeconds?: number;
}

/** Signal numbers, for the status of a worker a second signal stops at once (128 + n). */
const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;

export function workerCommand(context: CliContext): Command {
  return new Command('worker')
    .description("replay runs from a sweep's queue (`rmreplay sweep --queue`) and write each run's rows as Parquet under --results, until stopped")
    .requiredOption('--queue <url>', 'the Redis the sweep enqueued to, e.g. redis://10.0.0.5:6379/0')
    .requiredOption('--results <dir>', "the sweep's results directory, as mounted on this machine")
    .option('--concurrency <n>', 'runs replayed at once in this process (default 1; start one worker per core instead)', positiveWholeNumber)
    .option(
      '--lock-seconds <n>',
      `how long a run is this worker's before, if it stops answering, another takes it over (default ${context.api.DEFAULT_LOCK_MS / 1000}; longer than any run)`,
      positiveWholeNumber,
    )
    .option(
      '--queue-lost-seconds <n>',
      `how long to wait out a Redis that cannot be reached (a restart) before leaving with status 3 (default ${context.api.DEFAULT_QUEUE_LOST_MS / 1000})`,
      positiveWholeNumber,
    )
    .addHelpText(
      'after',
      '\nOne line per run on stdout. Stop with SIGINT or SIGTERM: the run in progress is written first (status 0);\n' +
        'a second signal leaves at once (status 128 + the signal). A Redis gone for --queue-lost-seconds: status 3.\n' +
        "A run of another rmreplay version than this worker's is refused (failed, not retried).\n\n" +
        'Example (one per core, on each machine that mounts the results directory):\n' +
        '  rmreplay worker --queue redis://10.0.0.5:6379/0 --results /mnt/rmreplay-results\n',
    )
    .action(async (options: WorkerOptions) => {
      const worker = await context.api.startQueueWorker({
        url: options.queue,
        resultsDir: options.results,
        concurrency: options.concurrency,
        lockMs: options.lockSeconds === undefined ? undefined : options.lockSeconds * 1000,
        queueLostAfterMs: options.queueLostSeconds === undefined ? undefined : options.queueLostSeconds * 1000,
        onRun: (event) => {
          if (event.kind === 'replayed') print(context, `replayed ${event.label} in ${event.wallMs.toFixed(0)} ms`);
          else if (event.kind === 'present') print(context, `already written: ${event.label}`);
          else print(context, `FAILED ${event.label}: ${event.message}`);
        },
      });
      const handlers: [NodeJS.Signals, () => void][] = [];
      let stopping = false;
      // Listening before saying it waits: a signal sent once the line is read is this worker's.
      const stopped = new Promise<NodeJS.Signals | 'lost'>((resolve) => {
        for (const signal of ['SIGINT', 'SIGTERM'] as const) {
          // The first asks for the run in progress to be written; a second will not wait for it
          // (the one exit outside main: the process is told to go, now).
          const handler = (): void => {
            if (stopping) process.exit(128 + SIGNAL_NUMBERS[signal]);
            resolve(signal);
          };
          handlers.push([signal, handler]);
          process.on(signal, handler);
        }
        void worker.lost.then(() => resolve('lost'));
      });
      print(context, `worker: waiting for runs on ${options.queue}, writing to ${options.results}`);
      const stop = await stopped;
      stopping = true;
      try {
        await worker.close();
      } finally {
        for (const [signal, handler] of handlers) process.off(signal, handler);
      }
      if (stop === 'lost') {
        throw new LostDependency(`worker: the queue at ${options.queue} could not be reached for ${(options.queueLostSeconds ?? context.api.DEFAULT_QUEUE_LOST_MS / 1000)} s; leaving`);
      }
      print(context, `worker: stopped by ${stop}`);
    });
}
