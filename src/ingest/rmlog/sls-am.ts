// What the Scheduler Load Simulator's (SLS) simulated MapReduce AM asks for, and when: the facts a
// log of it does not print but its code fixes (Hadoop 2.8 MRAMSimulator and AMSimulator;
// docs/model.md 12.5). Its app is recognised in the log by its unmanaged AM holding a working
// container of its own for the whole app (app-spec.ts), which no other AM does.

/** SLS's AM heartbeat (`yarn.sls.am.heartbeat.interval.ms`, 1000): it runs a step on each (model/am-steps.ts). */
export const SLS_AM_HEARTBEAT_MS = 1000;

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
