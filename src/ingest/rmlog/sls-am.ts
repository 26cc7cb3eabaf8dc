// What the Scheduler Load Simulator's (SLS) simulated MapReduce AM asks for, and when: the facts a
// log of it does not print but its code fixes (Hadoop 2.8 MRAMSimulator and AMSimulator;
// docs/model.md 12.5). Its app is recognised in the log by its unmanaged AM holding a working
// container of its own for the whole app (app-spec.ts), which no other AM does.

/** SLS's AM heartbeat (`yarn.sls.am.heartbeat.interval.ms`, 1000): it runs every step on it. */
export const SLS_AM_HEARTBEAT_MS = 1000;

/**
 * When the AM asks for its maps: its steps run every heartbeat from its submission, and a step
 * first handles the previous step's allocate response, then calls allocate again. The step after
 * its container is allocated pulls it; the one after that sees it and asks for every map at once.
 */
export function slsMapAskMs(submitMs: number, containerAllocatedMs: number): number {
  const pulledAt = Math.max(1, Math.ceil((containerAllocatedMs - submitMs) / SLS_AM_HEARTBEAT_MS));
  return submitMs + (pulledAt + 1) * SLS_AM_HEARTBEAT_MS;
}

/**
 * How many hosts and racks a stage of `tasks` names beside ANY: the AM asks for each task on the
 * host the trace gives it and that host's rack (`packageRequests`), so the names are the distinct
 * hosts plus one rack. The trace's hosts are not in the log: taken as drawn at random from the
 * cluster's `nodes`, the expected number of distinct ones among `tasks` draws.
 */
export function slsNamedLocations(tasks: number, nodes: number): number {
  if (tasks <= 0 || nodes <= 0) return 0;
  const distinctHosts = nodes * (1 - Math.pow(1 - 1 / nodes, tasks));
  return Math.round(distinctHosts) + 1;
}
