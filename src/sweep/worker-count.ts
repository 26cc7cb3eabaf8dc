// How many replay worker processes this machine can run: no more than its cores, and no more
// than its free memory holds. `--workers 256` started 66 processes that took 7.8 GB in all
// (about 120 MB each) on a 2-core machine, where more than 2 only wait for a core.

import { availableParallelism, freemem } from 'node:os';

/** What a worker process is taken to need: its heap, a workload and the runs it holds before writing them out. */
export const WORKER_MEMORY_MB = 256;

/** What the machine offers, injected so that tests do not depend on the machine they run on. */
export interface MachineRoom {
  readonly cores: number;
  readonly freeMemoryMb: number;
}

export function machineRoom(): MachineRoom {
  return { cores: availableParallelism(), freeMemoryMb: Math.floor(freemem() / (1024 * 1024)) };
}

/** The workers to start for `requested` (default: one per core), and a note when fewer than asked. */
export function workerCount(requested: number | undefined, machine: MachineRoom): { workers: number; note: string | null } {
  const asked = requested ?? machine.cores;
  const byMemory = Math.max(1, Math.floor(machine.freeMemoryMb / WORKER_MEMORY_MB));
  const workers = Math.max(1, Math.min(asked, machine.cores, byMemory));
  if (workers === asked) return { workers, note: null };
  const limit =
    workers === byMemory && byMemory < machine.cores
      ? `${machine.freeMemoryMb} MB of free memory holds ${byMemory} (about ${WORKER_MEMORY_MB} MB each)`
      : `this machine has ${machine.cores} core${machine.cores === 1 ? '' : 's'}`;
  return { workers, note: `${requested === undefined ? 'one worker per core' : `--workers ${asked}`} lowered to ${workers}: ${limit}` };
}
