// Which of YARN's schedulers a class named in an RM log is: the "Using Scheduler:" line names the
// class the RM loaded, which may be a subclass (SLS 3.x's SLSCapacityScheduler, SLSFairScheduler)
// or a wrapper that names none (SLS 2.x's ResourceSchedulerWrapper, which runs the scheduler its
// own setting names). A wrapper's log still tells by the classes that print the scheduler's lines.

export type SchedulerName = 'CapacityScheduler' | 'FairScheduler' | 'FifoScheduler';

const NAMES: readonly SchedulerName[] = ['CapacityScheduler', 'FairScheduler', 'FifoScheduler'];

/** The scheduler `className` (full or simple) is or extends by its name, or null if it names none. */
export function schedulerNamed(className: string): SchedulerName | null {
  const simple = className.slice(className.lastIndexOf('.') + 1);
  return NAMES.find((name) => simple.endsWith(name)) ?? null;
}
