// Reads a JSON cluster file; a missing file or bad JSON is a user error naming the file.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseCluster } from '../model/cluster.js';
import type { Cluster } from '../model/cluster.js';
import { UserError } from '../model/errors.js';
import { CLUSTERS_DIR } from '../paths.js';
import { readTextFile } from '../ingest/text-file.js';

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
