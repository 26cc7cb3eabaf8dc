// Reads a JSON cluster file; a missing file or bad JSON is a user error naming the file.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { nodeCount, parseCluster } from '../model/cluster.js';
import type { Cluster } from '../model/cluster.js';
import { UserError } from '../model/errors.js';
import { CLUSTERS_DIR } from '../paths.js';
import { readTextFile } from '../ingest/text-file.js';

/** The cluster files shipped in `clusters/`, by the name `--cluster` takes, with their node counts. */
export async function shippedClusters(): Promise<{ readonly name: string; readonly nodes: number }[]> {
  const names = readdirSync(CLUSTERS_DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const cluster = await loadClusterFile(name);
      return { name, nodes: nodeCount(cluster) };
    }),
  );
}

/**
 * The shipped cluster whose node count is nearest `sourceNodes` (on a log scale: 600 is nearer
 * 3,000 than 20), for a SWIM trace that names its source cluster's size; the smallest without one.
 */
export async function nearestShippedCluster(sourceNodes: number | null): Promise<string> {
  const clusters = await shippedClusters();
  const distance = (nodes: number): number => (sourceNodes === null ? nodes : Math.abs(Math.log(nodes / Math.max(1, sourceNodes))));
  let best = clusters[0]!;
  for (const cluster of clusters) if (distance(cluster.nodes) < distance(best.nodes)) best = cluster;
  return best.name;
}

/**
 * Load a cluster file. A bare name such as `fb2009-600` that is not a file path is looked up
 * among the cluster files shipped in `clusters/`.
 */
export async function loadClusterFile(pathOrName: string): Promise<Cluster> {
  const shipped = join(CLUSTERS_DIR, `${pathOrName}.json`);
  const path = !existsSync(pathOrName) && existsSync(shipped) ? shipped : pathOrName;
  const text = await readTextFile(path, 'cluster file', `; shipped cluster files are in ${CLUSTERS_DIR}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UserError(`cluster file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseCluster(json, `cluster file ${path}`);
}
