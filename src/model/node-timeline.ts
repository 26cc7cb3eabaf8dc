// The cluster's membership over a run: which nodes are in service at time 0, and when nodes join
// and leave after it, as an RM log records them (registrations, lost, decommissioned, shut down or
// unhealthy nodes, graceful decommissioning, RM starts and restarts). Plain data in the run's
// description; the replay engine applies it (docs/model.md 12). A run without a timeline keeps
// every node of its cluster for its whole length, which is what a cluster file describes.

/**
 * Why a node leaves, as the log shows it: an RMNodeImpl state (the NodeManager stopped
 * heartbeating, was decommissioned, shut down, went unhealthy or was told to reboot), a scheduler
 * "Removed node" with no state printed, or the RM itself stopping or restarting.
 */
export type NodeLeaveCause =
  | 'LOST'
  | 'DECOMMISSIONED'
  | 'SHUTDOWN'
  | 'UNHEALTHY'
  | 'REBOOTED'
  | 'removed'
  | 'rm-stopped'
  | 'rm-restart';

export type NodeChange =
  /** Node `node` (its index in the cluster's nodes, node groups expanded in order) starts serving. */
  | { readonly atMs: number; readonly kind: 'join'; readonly node: number }
  /** Node `node` leaves: the containers it holds end (killed, as the RM ends a lost node's containers). */
  | { readonly atMs: number; readonly kind: 'leave'; readonly node: number; readonly cause: NodeLeaveCause }
  /**
   * Node `node`, in service, is decommissioned gracefully (RMNodeImpl DECOMMISSIONING): it takes
   * no new container, and what its containers free leaves the cluster, until it leaves or is
   * recommissioned.
   */
  | { readonly atMs: number; readonly kind: 'drain'; readonly node: number }
  /** Node `node`, draining, is recommissioned (DECOMMISSIONING -> RUNNING): its whole size serves again. */
  | { readonly atMs: number; readonly kind: 'recommission'; readonly node: number }
  /**
   * Node `node`, in service, is resized in place to (memoryMb, vcores): its NodeManager
   * registered again with another size while the RM kept it (RMNodeImpl ReconnectNodeTransition
   * with apps running on it, then updateNodeResource); its containers run on.
   */
  | { readonly atMs: number; readonly kind: 'resize'; readonly node: number; readonly memoryMb: number; readonly vcores: number }
  /**
   * The RM restarted without recovering its apps (`yarn.resourcemanager.recovery.enabled` off,
   * Hadoop's default): every app it knew and that has not ended is lost. A restart that recovers
   * its apps is only nodes leaving and joining again.
   */
  | { readonly atMs: number; readonly kind: 'apps-lost' }
  /**
   * The RM (re)started, at `atMs` or, when `atMs` is 0, possibly before the replay began: until
   * `waitMs` after `atMs` (what is left then of its start-up wait,
   * yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms) it validates requests
   * against the configured maximum allocation, not one capped by the nodes registered so far,
   * which are still registering (docs/model.md 1.3).
   */
  | { readonly atMs: number; readonly kind: 'rm-started'; readonly waitMs: number };

/** The changes that concern one node (not the RM's own: apps lost, an RM start). */
export type NodeOwnChange = Extract<NodeChange, { readonly node: number }>;

export function isNodeOwnChange(change: NodeChange): change is NodeOwnChange {
  return 'node' in change;
}

/** The RM's start-up wait before it caps the maximum allocation by its nodes (yarn-default.xml: 10 s). */
export const RM_STARTUP_WAIT_MS = 10_000;

export interface NodeTimeline {
  /** Nodes in service at time 0 (indices, ascending); every other node joins later, if ever. */
  readonly initialNodes: readonly number[];
  /** In time order; changes at one instant apply in the order given. Times are whole ms. */
  readonly changes: readonly NodeChange[];
}

/** Throws a RangeError naming the first thing wrong with a timeline for a cluster of `nodeCount` nodes. */
export function checkNodeTimeline(timeline: NodeTimeline, nodeCount: number): void {
  const inService = new Uint8Array(nodeCount);
  let previous = -1;
  for (const node of timeline.initialNodes) {
    if (!(Number.isInteger(node) && node > previous && node < nodeCount)) {
      throw new RangeError(`node timeline: initial nodes must be ascending indices below ${nodeCount}, got ${node}`);
    }
    inService[node] = 1;
    previous = node;
  }
  let lastMs = 0;
  const draining = new Uint8Array(nodeCount);
  for (const change of timeline.changes) {
    if (!(Number.isInteger(change.atMs) && change.atMs >= lastMs)) {
      throw new RangeError(`node timeline: changes must be at whole ms from 0 on, in time order (${change.atMs} after ${lastMs})`);
    }
    lastMs = change.atMs;
    if (change.kind === 'rm-started' && !(Number.isInteger(change.waitMs) && change.waitMs >= 0)) {
      throw new RangeError(`node timeline: an RM start's wait must be a whole number of ms, got ${change.waitMs} at ${change.atMs} ms`);
    }
    if (!isNodeOwnChange(change)) continue;
    const node = change.node;
    if (!(Number.isInteger(node) && node >= 0 && node < nodeCount)) throw new RangeError(`node timeline: no node ${node}`);
    if (change.kind === 'resize') {
      if (inService[node] !== 1) throw new RangeError(`node timeline: node ${node} is resized while out of service at ${change.atMs} ms`);
      if (!(Number.isInteger(change.memoryMb) && change.memoryMb > 0 && Number.isInteger(change.vcores) && change.vcores > 0)) {
        throw new RangeError(`node timeline: node ${node} is resized to ${change.memoryMb} MB / ${change.vcores} vcores at ${change.atMs} ms: not a size`);
      }
      continue;
    }
    if (change.kind === 'drain' || change.kind === 'recommission') {
      const drains = change.kind === 'drain';
      if (inService[node] !== 1 || (draining[node] === 1) === drains) {
        throw new RangeError(`node timeline: node ${node} is ${drains ? 'drained' : 'recommissioned'} while ${inService[node] !== 1 ? 'out of service' : drains ? 'draining' : 'not draining'} at ${change.atMs} ms`);
      }
      draining[node] = drains ? 1 : 0;
      continue;
    }
    const joining = change.kind === 'join';
    if ((inService[node] === 1) === joining) {
      throw new RangeError(`node timeline: node ${node} ${joining ? 'joins while in service' : 'leaves while out of service'} at ${change.atMs} ms`);
    }
    inService[node] = joining ? 1 : 0;
    draining[node] = 0;
  }
}
