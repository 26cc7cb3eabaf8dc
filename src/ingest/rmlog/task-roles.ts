// Which task containers of a MapReduce app were maps and which reduces, when the log prints no
// container priority (Hadoop 2.8's allocation lines; every FairScheduler log from 2.8 on), from
// what else the log shows of the app (docs/log-formats.md 12, docs/guide.md's "How a log becomes a
// workload"). What the MapReduce AM does that the log can show (RMContainerAllocator):
//
//   1. maps share one container size (mapreduce.map.memory.mb), reduces another or the same;
//   2. reduces are asked for only once a map has completed (slow start: ceil(0.05 x maps) >= 1),
//      so a reduce is never allocated before the first map's end;
//   3. a reduce holds its container until after the last map has ended: it fetches every map's
//      output;
//   4. the AM asks for all its maps at once, and sets the ask of a priority to zero when it holds
//      every container it asked for there; the RM logs each such zero ask ("checking for
//      deactivate of application", an `ask_drained` event). The task allocated last before such a
//      line is the last one of its ask; after the maps' line no map is allocated, so every task
//      allocated later is a reduce. Lines before the maps' line that close an ask of their own are
//      the reduce ramp-ups the AM makes while maps still wait (each ramp-up asks for a few reduces
//      and zeroes the ask once it holds them).
//
// With two container sizes the sizes say which is which (the first task allocated is a map); with
// one, each zero-ask line is tried as the maps' own, and the roles must satisfy 2 and 3. Among the
// readings that do, the one whose maps' line comes last wins (the most tasks are maps, which is
// what a MapReduce job mostly is). No reading, or more than two sizes: null, and the caller keeps
// the tasks as the log's order and room give them.

import type { RmContainerRow } from '../../store/index.js';

export type TaskRole = 'map' | 'reduce';

/**
 * Slack when a container's allocation is compared with another's logged end: the AM hears that
 * a task is done from the task itself, while the RM logs the container's end only once the JVM
 * has exited and the NodeManager has reported it on a heartbeat (1 s). A reduce asked for at the
 * first map's end can therefore be allocated before the RM logs that end, and a reduce can end a
 * little before the RM logs the end of the map whose output it fetched last.
 */
export const COMPLETION_REPORT_SLACK_MS = 2000;

/**
 * The role of each of `tasks` (in allocation order, none with a logged priority), or null when
 * the log does not tell them apart. `askDrainsMs`: the app's zero-ask lines, in time order.
 */
export function inferTaskRoles(
  tasks: readonly RmContainerRow[],
  endOf: (c: RmContainerRow) => number,
  askDrainsMs: readonly number[],
): TaskRole[] | null {
  if (tasks.length < 2) return null;
  const sizes = new Set(tasks.map(sizeKey));
  if (sizes.size > 2) return null;
  if (sizes.size === 2) {
    const mapSize = sizeKey(tasks[0]!);
    const roles = tasks.map((c): TaskRole => (sizeKey(c) === mapSize ? 'map' : 'reduce'));
    return isMapReduce(tasks, roles, endOf) ? roles : null;
  }
  // One size: each zero-ask line that closes an ask (a task was allocated since the line before
  // it) is a candidate for the maps' own, latest first.
  const closers: { readonly drainMs: number; readonly task: number }[] = [];
  let previousDrainMs = -Infinity;
  let next = 0;
  for (const drainMs of askDrainsMs) {
    while (next < tasks.length && tasks[next]!.allocatedMs! <= drainMs) next++;
    const last = next - 1;
    if (last >= 0 && tasks[last]!.allocatedMs! > previousDrainMs) closers.push({ drainMs, task: last });
    previousDrainMs = drainMs;
  }
  for (let mapsLine = closers.length - 1; mapsLine >= 0; mapsLine--) {
    const { drainMs } = closers[mapsLine]!;
    const roles = tasks.map((c): TaskRole => (c.allocatedMs! > drainMs ? 'reduce' : 'map'));
    for (let rampUp = 0; rampUp < mapsLine; rampUp++) roles[closers[rampUp]!.task] = 'reduce';
    if (isMapReduce(tasks, roles, endOf)) return roles;
  }
  return null;
}

/** Whether the roles read as a MapReduce job: maps and reduces, rules 2 and 3 of the header. */
function isMapReduce(tasks: readonly RmContainerRow[], roles: readonly TaskRole[], endOf: (c: RmContainerRow) => number): boolean {
  let firstMapEndMs = Infinity;
  let lastMapEndMs = -Infinity;
  let reduces = 0;
  tasks.forEach((c, i) => {
    if (roles[i] === 'reduce') {
      reduces++;
      return;
    }
    firstMapEndMs = Math.min(firstMapEndMs, endOf(c));
    lastMapEndMs = Math.max(lastMapEndMs, endOf(c));
  });
  if (reduces === 0 || reduces === tasks.length) return false;
  return tasks.every(
    (c, i) =>
      roles[i] === 'map' ||
      (c.allocatedMs! >= firstMapEndMs - COMPLETION_REPORT_SLACK_MS && endOf(c) >= lastMapEndMs - COMPLETION_REPORT_SLACK_MS),
  );
}

function sizeKey(c: RmContainerRow): string {
  return `${c.memoryMb}/${c.vcores}`;
}
