// The nodes of a cluster built from Hadoop configuration files: the base cluster's, or `--nodes N`
// of the NodeManager size yarn-site.xml gives (else the base's only size, else Hadoop's default).

import type { Cluster, NodeGroup } from '../../model/cluster.js';
import { UserError } from '../../model/errors.js';
import type { Resources } from '../../model/resources.js';
import { NODE_DEFAULTS } from './yarn-site.js';

/** What of the import's request decides the nodes (cluster.ts HadoopClusterRequest). */
export interface NodeGroupsRequest {
  readonly base: Cluster | null;
  readonly nodes?: number;
  readonly yarnSite?: string;
}

/**
 * The node groups: `nodes` nodes of one size when asked, else the base's. The size comes from
 * yarn-site.xml, else the base's only node group, else Hadoop's default.
 */
export function nodeGroupsOf(request: NodeGroupsRequest, fromYarnSite: Partial<Resources>, notes: string[]): NodeGroup[] {
  const { base, nodes, yarnSite } = request;
  if (nodes === undefined) {
    if (fromYarnSite.memoryMb !== undefined || fromYarnSite.vcores !== undefined) {
      notes.push(
        `${yarnSite} sets the NodeManager size, but the node groups come from the base cluster: pass --nodes N for N nodes of that size`,
      );
    }
    return base!.nodeGroups.map((g) => ({ ...g }));
  }
  const single = base !== null && base.nodeGroups.length === 1 ? base.nodeGroups[0]! : null;
  const sizeOf = (component: keyof Resources, property: string): number => {
    const fromFile = fromYarnSite[component];
    if (fromFile !== undefined) return fromFile;
    if (single !== null) return single[component];
    if (base !== null) {
      throw new UserError(
        `--nodes ${nodes} needs one node size, but ${yarnSite ?? 'no yarn-site.xml'} ${yarnSite ? `sets no ${property}` : 'was given'} and the base cluster has ${base.nodeGroups.length} node groups`,
      );
    }
    notes.push(`no ${property} given: nodes get Hadoop's default ${NODE_DEFAULTS[component]} ${component === 'memoryMb' ? 'MB' : 'vcores'}`);
    return NODE_DEFAULTS[component];
  };
  const memoryMb = sizeOf('memoryMb', 'yarn.nodemanager.resource.memory-mb');
  const vcores = sizeOf('vcores', 'yarn.nodemanager.resource.cpu-vcores');
  const speeds = new Set(base?.nodeGroups.map((g) => g.speedFactor) ?? [1]);
  const speedFactor = speeds.size === 1 ? [...speeds][0]! : 1;
  if (speeds.size > 1) notes.push('the base cluster has node groups of several speeds: the new nodes have speed factor 1');
  if (base !== null) {
    notes.push(`the node groups are now ${nodes} nodes of ${memoryMb} MB / ${vcores} vcores, replacing the base cluster's ${base.nodeGroups.length} group(s)`);
  }
  return [{ name: `${memoryMb}mb-${vcores}vc`, count: nodes, memoryMb, vcores, speedFactor }];
}
