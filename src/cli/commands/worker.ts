// `rmreplay worker`: replay runs from a distributed sweep's queue until stopped (SIGINT or
// SIGTERM: the run in progress is finished and written first).

import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { print } from '../context.js';
import { positiveWholeNumber } from '../options.js';

interface WorkerOptions {
  queue: string;
  results: string;
  concurrency?: number;
  lockSeconds?: number;
}

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
    .addHelpText(
      'after',
      '\nOne line per run on stdout. Stop with SIGINT or SIGTERM: the run in progress is written first.\n' +
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
        onRun: (event) => {
          if (event.kind === 'replayed') print(context, `replayed ${event.label} in ${event.wallMs.toFixed(0)} ms`);
          else if (event.kind === 'present') print(context, `already written: ${event.label}`);
          else print(context, `FAILED ${event.label}: ${event.message}`);
        },
      });
      print(context, `worker: waiting for runs on ${options.queue}, writing to ${options.results}`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await worker.close();
    });
}
