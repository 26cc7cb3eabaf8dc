// When each logged node heartbeats (docs/model.md 2): a NodeManager heartbeats every interval from
// a start of its own, and the scheduler allocates only when one arrives, so every container the log
// shows allocated on a node marks one of that node's heartbeats. Which node heartbeats first after
// an app asks decides which app gets which node at the start of a run; the phases are the nodes'
// (set when their NodeManagers started), not the apps', so the replay of a log starts its nodes at
// the recorded phases instead of drawing them from the seed.
//
// Only where the log shows them keeping their phase: SLS's simulated NodeManagers heartbeat on a
// fixed period, so every allocation on a node falls at the same phase, but a real NodeManager
// waits the interval after its previous heartbeat was answered and heartbeats out of band when a
// container ends, so its phase drifts (tens of ms a heartbeat) and one allocation says little
// about the next. A node whose allocations do not keep one phase takes its phase from the seed.

import type { RmContainerRow } from '../../store/rmlog.js';

/** How far from a node's phase an allocation may fall and still be counted on it (ms). */
const PHASE_TOLERANCE_MS = 50;
/** A phase is kept when this share of the node's allocations falls on it... */
const ON_PHASE_SHARE = 0.8;
/** ...of at least this many allocations, the first ones from replay time 0 on. */
const MIN_ALLOCATIONS = 3;
const MAX_ALLOCATIONS_READ = 20;

/**
 * Each node's heartbeat phase (ms after replay time 0, below `intervalMs`), in `nodeIds` order:
 * that of its first allocation or reservation at or after `originMs`, when its first allocations
 * keep that phase; else null (the replay draws the phase from the seed).
 */
export function recordedHeartbeatPhasesMs(
  nodeIds: readonly string[],
  containers: readonly RmContainerRow[],
  originMs: number,
  intervalMs: number,
): (number | null)[] {
  const times = new Map<string, number[]>();
  for (const c of containers) {
    if (c.nodeId === null || c.allocatedMs === null || c.startUnknown || c.allocatedMs < originMs) continue;
    const list = times.get(c.nodeId);
    if (list) list.push(c.allocatedMs);
    else times.set(c.nodeId, [c.allocatedMs]);
  }
  return nodeIds.map((nodeId) => {
    const list = times.get(nodeId);
    if (list === undefined || list.length < MIN_ALLOCATIONS) return null;
    const first = list.sort((a, b) => a - b).slice(0, MAX_ALLOCATIONS_READ);
    const phaseMs = (first[0]! - originMs) % intervalMs;
    const onPhase = first.filter((atMs) => {
      const offsetMs = (atMs - first[0]!) % intervalMs;
      return Math.min(offsetMs, intervalMs - offsetMs) <= PHASE_TOLERANCE_MS;
    }).length;
    return onPhase >= ON_PHASE_SHARE * first.length ? phaseMs : null;
  });
}
