// Which nodes served the logged cluster, and when (docs/model.md 12): the log's membership lines
// become service intervals per node, then the node list and timeline a replay "as recorded" runs
// on, between the first replayed submission and the last thing its apps did.
//
// Where the log prints the scheduler's own "Added node" / "Removed node" lines, they decide
// (they are what the scheduler scheduled on); otherwise registrations and RMNodeImpl states do
// (NEW or UNHEALTHY -> RUNNING joins; LOST, DECOMMISSIONED, SHUTDOWN, UNHEALTHY, REBOOTED leave).
// A node moving to DECOMMISSIONING drains (it takes no new container and gives up what its
// containers free) until it leaves, or is recommissioned (DECOMMISSIONING -> RUNNING). A node
// that registers again with another size while the scheduler keeps it, or that the scheduler
// updates to another size ("Update resource on node"), is resized in place.
// An RM start ends every node the previous RM had, as does its stop: NodeManagers register again
// with the new RM. An HA failover (the RM going standby, later active again, or the other RM of
// a pair taking over) is a stop and start. A restart that recovered its apps with their
// containers (work-preserving recovery) keeps the nodes that register again; one that recovered
// nothing loses the apps it had.
// Each RM start's start-up wait is in the timeline too (docs/model.md 1.3).

import { isNodeOwnChange, RM_STARTUP_WAIT_MS } from '../../model/node-timeline.js';
import type { NodeChange, NodeLeaveCause, NodeTimeline } from '../../model/node-timeline.js';
import type { Resources } from '../../model/resources.js';
import type { RmContainerRow, RmNodeEventRow } from '../../store/index.js';

/** Hadoop's NodeManager size when yarn.nodemanager.resource.* are unset (yarn-default.xml). */
export const DEFAULT_NODE: Resources = { memoryMb: 8192, vcores: 8 };

/** What the membership derivation needs to know of each replayed app. */
export interface MemberApp {
  readonly appId: string;
  /** Log time. */
  readonly submitMs: number;
  /** Log time of the last thing the log shows it doing (its finish, a container's allocation or end). */
  readonly lastActivityMs: number;
  /** The log never shows it ending: it was still running when the log (or its RM) ended. */
  readonly unended: boolean;
}

/** A node the replay has, in node-group order. */
export interface MemberNode {
  readonly nodeId: string;
  readonly memoryMb: number;
  readonly vcores: number;
  /** Its size is not in the log (it registered before the log begins): assumed. */
  readonly sizeAssumed: boolean;
}

export interface LogMembership {
  /** Grouped by size in order of first service: node i of the replay's cluster is nodes[i]. */
  readonly nodes: readonly MemberNode[];
  /** Null when every node served throughout: the cluster is then fixed, as a cluster file's is. */
  readonly timeline: NodeTimeline | null;
  /** Per app id: the log time its containers with no recorded end ended (the RM it ran under stopped), else the log's end. */
  readonly appEndBoundMs: ReadonlyMap<string, number>;
  /** Per app id, for apps the log never shows ending whose RM stopped or restarted without recovering them: when. */
  readonly appLostAtMs: ReadonlyMap<string, number>;
  /** The joins, leaves and RM restarts the timeline replays, counted for notes. */
  readonly joins: number;
  readonly leaves: number;
  readonly lostNodes: number;
  /** Nodes the timeline drains (graceful decommissioning under way while the apps ran). */
  readonly drains: number;
  /** Resizes in place the timeline replays. */
  readonly resizes: number;
  readonly restarts: number;
  /** Of the restarts, those that were an HA failover (the RM went standby, or came back active). */
  readonly failovers: number;
  readonly restartsLosingApps: number;
}

interface Interval {
  readonly nodeId: string;
  readonly fromMs: number;
  toMs: number | null;
  cause: NodeLeaveCause | null;
  /** Its size when it joined, as it registered; null when the log never registers it before. */
  readonly size: Resources | null;
  /** Graceful decommissioning while in service: starts (drain) and ends (recommission), in time order. */
  readonly drains: Drain[];
  /** Resizes in place while in service (registered again with another size, the scheduler's updates), in time order. */
  readonly resizes: Resize[];
}

interface Resize {
  readonly atMs: number;
  readonly size: Resources;
}

interface Drain {
  readonly atMs: number;
  readonly kind: 'drain' | 'recommission';
}

/** An RM instance's end: the RM stopped (its stop line) or a new one started without one. */
interface RmEnd {
  /** When the RM went away: its stop, else the next start. */
  readonly downMs: number;
  /** The next RM's start, if any. */
  readonly restartMs: number | null;
  /** An HA failover: the RM went standby, or its start was going active again. */
  readonly failover: boolean;
}

const LEAVING_STATES: ReadonlySet<string> = new Set(['LOST', 'DECOMMISSIONED', 'SHUTDOWN', 'UNHEALTHY', 'REBOOTED']);

export function membershipOf(
  events: readonly RmNodeEventRow[],
  containers: readonly RmContainerRow[],
  apps: readonly MemberApp[],
  originMs: number,
  logEndMs: number,
): LogMembership {
  const capability = new Map<string, Resources>();
  const intervals: Interval[] = [];
  const open = new Map<string, Interval>();
  const ends: RmEnd[] = [];
  /** When each RM started (its banner, or its activation after a standby since then), and when its start-up wait ends. */
  const starts: { atMs: number; waitUntilMs: number }[] = [];
  const bySchedulerLines = events.some((e) => e.kind === 'node_added' || e.kind === 'node_removed');
  /** The latest RMNodeImpl state a node moved to: the cause of its scheduler removal. */
  const lastState = new Map<string, string>();
  let sawInstance = false;
  let stoppedAtMs: number | null = null;
  let stoppedByFailover = false;

  /** Every node id that joined, by host (the scheduler's name for a node in its size updates). */
  const nodesOfHost = new Map<string, string[]>();
  const join = (nodeId: string, atMs: number): void => {
    if (open.has(nodeId)) return;
    const interval: Interval = { nodeId, fromMs: atMs, toMs: null, cause: null, size: capability.get(nodeId) ?? null, drains: [], resizes: [] };
    intervals.push(interval);
    open.set(nodeId, interval);
    const host = hostOf(nodeId);
    const sameHost = nodesOfHost.get(host);
    if (!sameHost) nodesOfHost.set(host, [nodeId]);
    else if (!sameHost.includes(nodeId)) sameHost.push(nodeId);
  };
  const leave = (nodeId: string, atMs: number, cause: NodeLeaveCause): void => {
    const interval = open.get(nodeId);
    if (!interval) return;
    interval.toMs = atMs;
    interval.cause = cause;
    open.delete(nodeId);
  };
  const leaveAll = (atMs: number, cause: NodeLeaveCause): void => {
    for (const nodeId of [...open.keys()]) leave(nodeId, atMs, cause);
  };
  const drain = (nodeId: string, atMs: number, kind: Drain['kind']): void => {
    open.get(nodeId)?.drains.push({ atMs, kind });
  };

  for (const e of withUnregisteredNodes(events, containers)) {
    const t = e.timeMs;
    switch (e.kind) {
      case 'unregistered':
        join(e.nodeId!, t);
        break;
      case 'rm_started':
        // The start-up wait counts from the RM's cluster timestamp, its process's start: the
        // banner, even when the RM waited in standby before this start. A failover's activation
        // (STANDBY -> ACTIVE) comes long after its process's start (docs/model.md 12.2).
        if (e.toState !== 'ACTIVE') starts.push({ atMs: t, waitUntilMs: (e.bannerMs ?? t) + RM_STARTUP_WAIT_MS });
        if (sawInstance || open.size > 0) {
          ends.push({ downMs: stoppedAtMs ?? t, restartMs: t, failover: stoppedByFailover || e.toState === 'ACTIVE' });
        }
        leaveAll(t, 'rm-restart');
        sawInstance = true;
        stoppedAtMs = null;
        stoppedByFailover = false;
        break;
      case 'rm_stopped':
        leaveAll(t, 'rm-stopped');
        // The RM stopped scheduling at its first stop: a failover's standby, then maybe its
        // SHUTDOWN banner later.
        if (stoppedAtMs === null) {
          stoppedAtMs = t;
          stoppedByFailover = e.toState === 'STANDBY';
        }
        sawInstance = true;
        break;
      case 'node_registered': {
        const nodeId = e.nodeId!;
        const size = { memoryMb: e.memoryMb ?? DEFAULT_NODE.memoryMb, vcores: e.vcores ?? DEFAULT_NODE.vcores };
        const before = capability.get(nodeId);
        capability.set(nodeId, size);
        sawInstance = true;
        // A NodeManager that registers again with another size: with no app running on it the RM
        // removes the node and adds it again, else it resizes it in place (RMNodeImpl
        // ReconnectNodeTransition), its containers running on. The scheduler's lines, where the
        // log prints them, say which (a removal they print after this line ends the node anyway);
        // without them it is taken as another node.
        const resized = before !== undefined && open.has(nodeId) && !sameSize(before, size);
        if (!bySchedulerLines && resized) leave(nodeId, t, 'removed');
        if (!bySchedulerLines) join(nodeId, t);
        else if (resized) open.get(nodeId)!.resizes.push({ atMs: t, size });
        break;
      }
      case 'node_added':
        if (bySchedulerLines) join(e.nodeId!, t);
        break;
      case 'node_removed':
        if (bySchedulerLines) leave(e.nodeId!, t, leaveCause(lastState.get(e.nodeId!)));
        break;
      case 'node_resource': {
        // The scheduler resized a node in service (docs/model.md 12.1). A draining node's
        // updates are the scheduler shrinking it to what it holds, which its drain already does;
        // its recommission restores its size.
        const nodeId = nodeNamed(e.nodeId!, open, nodesOfHost);
        const interval = nodeId === null ? undefined : open.get(nodeId);
        if (!interval || interval.drains.at(-1)?.kind === 'drain') break;
        const size = { memoryMb: e.memoryMb!, vcores: e.vcores! };
        capability.set(interval.nodeId, size);
        interval.resizes.push({ atMs: t, size });
        break;
      }
      case 'node_state': {
        const nodeId = e.nodeId!;
        const to = e.toState ?? '';
        lastState.set(nodeId, to);
        if (to === 'DECOMMISSIONING') drain(nodeId, t, 'drain');
        else if (e.fromState === 'DECOMMISSIONING' && to === 'RUNNING') drain(nodeId, t, 'recommission');
        if (bySchedulerLines) break;
        if (to === 'RUNNING') join(nodeId, t);
        else if (LEAVING_STATES.has(to)) leave(nodeId, t, leaveCause(to));
        break;
      }
    }
  }
  if (stoppedAtMs !== null) ends.push({ downMs: stoppedAtMs, restartMs: null, failover: stoppedByFailover });

  // Which RM ends the apps survived: a restart recovered apps if one submitted before it did
  // something after it; it kept their containers (work-preserving) if one allocated before it
  // completed after it.
  const recovers = ends.map((end) => apps.some((a) => a.submitMs < end.downMs && a.lastActivityMs > (end.restartMs ?? Infinity)));
  const preservesWork = ends.map(
    (end, i) =>
      recovers[i]! &&
      containers.some(
        (c) => c.allocatedMs !== null && c.allocatedMs < end.downMs && c.endMs !== null && c.endMs > end.restartMs! && c.endState === 'COMPLETED',
      ),
  );
  mergeAcrossPreservingRestarts(intervals, ends, preservesWork);

  const appEndBoundMs = new Map<string, number>();
  const appLostAtMs = new Map<string, number>();
  for (const a of apps) {
    let bound = logEndMs;
    for (let i = 0; i < ends.length; i++) {
      const end = ends[i]!;
      if (end.downMs > a.submitMs && !recovers[i]) {
        bound = end.downMs;
        if (a.unended) appLostAtMs.set(a.appId, end.downMs);
        break;
      }
    }
    appEndBoundMs.set(a.appId, bound);
  }

  // The window the replay needs: from the first replayed submission to the last thing its apps
  // did (an app lost with its RM has done its last thing then). After that, membership no longer
  // touches the recorded work (shutting the cluster down after it, say), and a replay that takes
  // longer keeps the cluster as it was.
  let windowEndMs = originMs;
  for (const a of apps) windowEndMs = Math.max(windowEndMs, a.unended ? appEndBoundMs.get(a.appId)! : a.lastActivityMs);
  const inWindow = (atMs: number | null): boolean => atMs !== null && atMs > originMs && atMs <= windowEndMs;
  const served = intervals.filter((iv) => iv.fromMs <= windowEndMs && (iv.toMs === null || iv.toMs > originMs));

  // Nodes by size, each size's nodes in order of first service (node ids break ties).
  const firstServed = new Map<string, Interval>();
  for (const iv of served) if (!firstServed.has(iv.nodeId)) firstServed.set(iv.nodeId, iv);
  const order = [...firstServed.values()]
    .sort((x, y) => x.fromMs - y.fromMs || (x.nodeId < y.nodeId ? -1 : 1))
    .map((iv) => iv.nodeId);
  // A node's size in the replay's cluster: the one it had when the replay began, or when it first
  // joined after that; later sizes are resize changes.
  const sizeOf = (nodeId: string): Resources =>
    sizeAt(firstServed.get(nodeId)!, originMs) ?? capability.get(nodeId) ?? assumedSize(nodeId, containers);
  const bySize = new Map<string, string[]>();
  for (const nodeId of order) {
    const size = sizeOf(nodeId);
    const key = `${size.memoryMb}/${size.vcores}`;
    const group = bySize.get(key);
    if (group) group.push(nodeId);
    else bySize.set(key, [nodeId]);
  }
  const nodes: MemberNode[] = [];
  const indexOf = new Map<string, number>();
  for (const group of bySize.values()) {
    for (const nodeId of group) {
      indexOf.set(nodeId, nodes.length);
      const size = sizeOf(nodeId);
      nodes.push({ nodeId, memoryMb: size.memoryMb, vcores: size.vcores, sizeAssumed: !capability.has(nodeId) });
    }
  }

  const initial = new Set<number>();
  const changes: { change: NodeChange; order: number }[] = [];
  let lostNodes = 0;
  const resizeTo = (node: number, atMs: number, size: Resources, order: number): void => {
    changes.push({ change: { atMs: atMs - originMs, kind: 'resize', node, memoryMb: size.memoryMb, vcores: size.vcores }, order });
  };
  for (const iv of served) {
    const node = indexOf.get(iv.nodeId)!;
    if (iv.fromMs <= originMs) {
      initial.add(node);
    } else {
      changes.push({ change: { atMs: iv.fromMs - originMs, kind: 'join', node }, order: 2 });
      // At the size it joins with (no change when it is the size it last served with).
      if (iv.size !== null) resizeTo(node, iv.fromMs, iv.size, 2.5);
    }
    for (const r of iv.resizes) if (r.atMs > originMs && r.atMs <= windowEndMs) resizeTo(node, r.atMs, r.size, 3);
    // Decommissioning under way when the replay starts drains the node at time 0.
    for (const d of iv.drains) {
      if (d.atMs > windowEndMs) break;
      changes.push({ change: { atMs: Math.max(d.atMs, originMs) - originMs, kind: d.kind, node }, order: 3 });
    }
    if (inWindow(iv.toMs)) {
      changes.push({ change: { atMs: iv.toMs! - originMs, kind: 'leave', node, cause: iv.cause ?? 'removed' }, order: 1 });
      if (iv.cause === 'LOST') lostNodes++;
    }
  }
  let restarts = 0;
  let failovers = 0;
  let restartsLosingApps = 0;
  ends.forEach((end, i) => {
    if (!inWindow(end.downMs)) return;
    restarts++;
    if (end.failover) failovers++;
    // The apps the RM had are lost with it, before its nodes leave.
    if (!recovers[i]) {
      restartsLosingApps++;
      changes.push({ change: { atMs: end.downMs - originMs, kind: 'apps-lost' }, order: 0 });
    }
  });
  // Each RM start whose start-up wait reaches into the window: the replay validates requests
  // against the configured maximum allocation through what is left of it (after the previous
  // RM's apps and nodes are gone, before any node joins the new one).
  for (const { atMs: startMs, waitUntilMs: untilMs } of starts) {
    if (untilMs <= startMs || untilMs < originMs || startMs > windowEndMs) continue;
    const atMs = Math.max(startMs, originMs);
    changes.push({ change: { atMs: atMs - originMs, kind: 'rm-started', waitMs: untilMs - atMs }, order: 2 });
  }
  changes.sort((x, y) => x.change.atMs - y.change.atMs || x.order - y.order || nodeOf(x.change) - nodeOf(y.change));
  dropUnfollowableChanges(changes, initial, nodes);
  const joins = changes.filter((c) => c.change.kind === 'join').length;
  const leaves = changes.filter((c) => c.change.kind === 'leave').length;
  const drains = changes.filter((c) => c.change.kind === 'drain').length;
  const resizes = changes.filter((c) => c.change.kind === 'resize').length;
  const timeline: NodeTimeline | null =
    changes.length === 0 && initial.size === nodes.length
      ? null
      : { initialNodes: [...initial].sort((x, y) => x - y), changes: changes.map((c) => c.change) };
  return { nodes, timeline, appEndBoundMs, appLostAtMs, joins, leaves, lostNodes, drains, resizes, restarts, failovers, restartsLosingApps };
}

/**
 * The membership lines, with a join for each node that holds containers although no line adds it
 * before them: it registered before the log begins (or before the RM start the log shows last
 * before its first container), and its size is not in the log.
 */
function withUnregisteredNodes(
  events: readonly RmNodeEventRow[],
  containers: readonly RmContainerRow[],
): (Omit<RmNodeEventRow, 'kind'> & { kind: RmNodeEventRow['kind'] | 'unregistered' })[] {
  const firstAllocationMs = new Map<string, number>();
  for (const c of containers) {
    if (c.nodeId === null || c.allocatedMs === null) continue;
    firstAllocationMs.set(c.nodeId, Math.min(firstAllocationMs.get(c.nodeId) ?? Infinity, c.allocatedMs));
  }
  const joins: (Omit<RmNodeEventRow, 'kind'> & { kind: 'unregistered' })[] = [];
  for (const [nodeId, allocatedMs] of firstAllocationMs) {
    const added = events.some((e) => e.nodeId === nodeId && (e.kind === 'node_registered' || e.kind === 'node_added') && e.timeMs <= allocatedMs);
    if (added) continue;
    let startMs = -Infinity;
    for (const e of events) if (e.kind === 'rm_started' && e.timeMs <= allocatedMs) startMs = e.timeMs;
    joins.push({ timeMs: startMs, kind: 'unregistered', nodeId, fromState: null, toState: null, memoryMb: null, vcores: null, bannerMs: null });
  }
  if (joins.length === 0) return [...events];
  joins.sort((x, y) => x.timeMs - y.timeMs || (x.nodeId! < y.nodeId! ? -1 : 1));
  // Each right after the RM start it follows (stable merge: events first at equal times).
  const merged: (Omit<RmNodeEventRow, 'kind'> & { kind: RmNodeEventRow['kind'] | 'unregistered' })[] = [];
  let j = 0;
  for (const e of events) {
    while (j < joins.length && joins[j]!.timeMs < e.timeMs) merged.push(joins[j++]!);
    merged.push(e);
  }
  while (j < joins.length) merged.push(joins[j++]!);
  return merged;
}

/**
 * Leaves out, in place, the drains, recommissions and resizes a replay cannot follow or that
 * change nothing: a node drained again while it drains (its log moved it to DECOMMISSIONING
 * twice, say across an RM restart); one drained or resized while not in service at that point
 * of the timeline (timed with its own leave, as when the scheduler removes a node that
 * registered again with another size and adds it back: its join then gives the size); a resize
 * to the size the node already has.
 */
function dropUnfollowableChanges(changes: { change: NodeChange }[], initial: ReadonlySet<number>, nodes: readonly MemberNode[]): void {
  const inService = new Uint8Array(nodes.length);
  const draining = new Uint8Array(nodes.length);
  const sizes = nodes.map((n): Resources => ({ memoryMb: n.memoryMb, vcores: n.vcores }));
  for (const node of initial) inService[node] = 1;
  let kept = 0;
  for (const entry of changes) {
    const change = entry.change;
    if (change.kind === 'drain' || change.kind === 'recommission') {
      const drains = change.kind === 'drain';
      if (inService[change.node] !== 1 || (draining[change.node] === 1) === drains) continue;
      draining[change.node] = drains ? 1 : 0;
    } else if (change.kind === 'resize') {
      if (inService[change.node] !== 1 || sameSize(change, sizes[change.node]!)) continue;
      sizes[change.node] = { memoryMb: change.memoryMb, vcores: change.vcores };
    } else if (isNodeOwnChange(change)) {
      inService[change.node] = change.kind === 'join' ? 1 : 0;
      draining[change.node] = 0;
    }
    changes[kept++] = entry;
  }
  changes.length = kept;
}

/**
 * The node in service a scheduler's node name stands for: the name is the node's host (or, with
 * yarn.scheduler.include-port-in-node-name, its id); null when no node in service, or more than
 * one on that host, answers to it.
 */
function nodeNamed(name: string, open: ReadonlyMap<string, Interval>, nodesOfHost: ReadonlyMap<string, readonly string[]>): string | null {
  if (open.has(name)) return name;
  let found: string | null = null;
  for (const nodeId of nodesOfHost.get(name) ?? []) {
    if (!open.has(nodeId)) continue;
    if (found !== null) return null;
    found = nodeId;
  }
  return found;
}

/** A node id's host: what comes before its first ':' (as the store's SQL cuts it). */
function hostOf(nodeId: string): string {
  const colon = nodeId.indexOf(':');
  return colon < 0 ? nodeId : nodeId.slice(0, colon);
}

function nodeOf(change: NodeChange): number {
  return isNodeOwnChange(change) ? change.node : -1;
}

function leaveCause(state: string | undefined): NodeLeaveCause {
  return state !== undefined && LEAVING_STATES.has(state) ? (state as NodeLeaveCause) : 'removed';
}

/**
 * Under work-preserving recovery the NodeManagers keep their containers across the restart and
 * register again with them: a node that does so serves on, as if it never left.
 */
function mergeAcrossPreservingRestarts(intervals: Interval[], ends: readonly RmEnd[], preservesWork: readonly boolean[]): void {
  for (let i = 0; i < ends.length; i++) {
    if (!preservesWork[i]) continue;
    const end = ends[i]!;
    for (const iv of intervals) {
      if (iv.toMs !== end.downMs || (iv.cause !== 'rm-restart' && iv.cause !== 'rm-stopped')) continue;
      const next = intervals.find((other) => other.nodeId === iv.nodeId && other.fromMs >= end.restartMs! && other !== iv);
      if (!next) continue;
      iv.toMs = next.toMs;
      iv.cause = next.cause;
      iv.drains.push(...next.drains);
      // Registered again with another size: resized in place across the restart.
      const before = sizeAt(iv, next.fromMs);
      if (next.size !== null && before !== null && !sameSize(before, next.size)) iv.resizes.push({ atMs: next.fromMs, size: next.size });
      iv.resizes.push(...next.resizes);
      intervals.splice(intervals.indexOf(next), 1);
    }
  }
}

/** An interval's size at `atMs`: its size when it joined, as resized in place up to then; null if unknown. */
function sizeAt(iv: Interval, atMs: number): Resources | null {
  let size = iv.size;
  for (const r of iv.resizes) if (r.atMs <= atMs) size = r.size;
  return size;
}

function sameSize(a: Resources, b: Resources): boolean {
  return a.memoryMb === b.memoryMb && a.vcores === b.vcores;
}

/** A node the log never registers: Hadoop's default size, or what it held at once if that was more. */
function assumedSize(nodeId: string, containers: readonly RmContainerRow[]): Resources {
  const steps: { atMs: number; memoryMb: number; vcores: number }[] = [];
  for (const c of containers) {
    if (c.nodeId !== nodeId || c.allocatedMs === null || c.memoryMb === null) continue;
    steps.push({ atMs: c.allocatedMs, memoryMb: c.memoryMb, vcores: c.vcores ?? 1 });
    if (c.endMs !== null) steps.push({ atMs: c.endMs, memoryMb: -c.memoryMb, vcores: -(c.vcores ?? 1) });
  }
  steps.sort((a, b) => a.atMs - b.atMs || a.memoryMb - b.memoryMb);
  let memoryMb = 0;
  let vcores = 0;
  let peakMemoryMb = 0;
  let peakVcores = 0;
  for (const step of steps) {
    memoryMb += step.memoryMb;
    vcores += step.vcores;
    peakMemoryMb = Math.max(peakMemoryMb, memoryMb);
    peakVcores = Math.max(peakVcores, vcores);
  }
  return { memoryMb: Math.max(DEFAULT_NODE.memoryMb, peakMemoryMb), vcores: Math.max(DEFAULT_NODE.vcores, peakVcores) };
}
