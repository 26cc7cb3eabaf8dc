// A cluster's node groups scaled to another node count: the same cluster, N nodes. Each group
// keeps its share of the nodes as nearly as whole nodes allow (largest remainder: a group gets
// the whole part of its count x N / total, and the nodes left over go one each to the groups
// with the largest remainders, the earlier group on a tie). Node sizes, speeds, scheduler
// settings and queues stay as they are.

import { MAX_NODE_COUNT, nodeCount } from './cluster.js';
import type { Cluster, NodeGroup } from './cluster.js';
import { UserError } from './errors.js';

export { MAX_NODE_COUNT } from './cluster.js';

/** The cluster's name once --nodes gave it `nodes` nodes, so runs on different counts do not share a name. */
export function nameWithNodeCount(name: string, nodes: number): string {
  return `${name}@${nodes}`;
}

export function scaleNodeGroups(cluster: Cluster, nodes: number): { cluster: Cluster; notes: string[] } {
  if (!Number.isSafeInteger(nodes) || nodes < 1 || nodes > MAX_NODE_COUNT) {
    throw new UserError(`--nodes must be a whole number from 1 to ${MAX_NODE_COUNT}, not ${nodes}`);
  }
  const total = nodeCount(cluster);
  if (nodes === total) return { cluster, notes: [] };
  const shares = cluster.nodeGroups.map((group, index) => ({
    group,
    index,
    count: Math.floor((group.count * nodes) / total),
    remainder: (group.count * nodes) % total,
  }));
  let left = nodes - shares.reduce((sum, share) => sum + share.count, 0);
  for (const share of [...shares].sort((a, b) => b.remainder - a.remainder || a.index - b.index)) {
    if (left === 0) break;
    share.count++;
    left--;
  }
  const notes: string[] = [];
  const nodeGroups: NodeGroup[] = [];
  for (const { group, count } of shares) {
    if (count > 0) nodeGroups.push({ ...group, count });
    else notes.push(`at ${nodes} nodes, node group ${group.name} of ${cluster.name} (${group.count} of ${total} nodes) gets none and is left out`);
  }
  return { cluster: { ...cluster, name: nameWithNodeCount(cluster.name, nodes), nodeGroups }, notes };
}
