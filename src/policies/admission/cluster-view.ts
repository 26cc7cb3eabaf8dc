// The one read-only view of a running replay that admission policies and controllers get: the
// cluster's capacity and what is held on it, per node and in all, and where the apps are. The
// engine keeps it current as containers come and go; a policy reads it and never writes it,
// and never reaches into the engine (docs/architecture.md, "Admission policies").

import type { Resources, ResourceCalculatorName } from '../../model/resources.js';

/** One NodeManager as a policy sees it. */
export interface NodeView {
  readonly index: number;
  /** What the NodeManager advertises. */
  readonly capacityMemoryMb: number;
  readonly capacityVcores: number;
  readonly freeMemoryMb: number;
  readonly freeVcores: number;
  /** ApplicationMaster containers held on it now: how many, and their total size. */
  readonly amContainers: number;
  readonly amMemoryMb: number;
  readonly amVcores: number;
  /** Task containers held on it now. */
  readonly taskContainers: number;
  readonly taskMemoryMb: number;
  readonly taskVcores: number;
}

export interface ClusterView {
  readonly capacity: Resources;
  /** The resource calculator fits are made by: `dominant` looks at vcores, `default` at memory only. */
  readonly calculator: ResourceCalculatorName;
  readonly minimumAllocation: Resources;
  readonly nodes: readonly NodeView[];
  /** Held by allocated containers (AMs and tasks). */
  readonly usedMemoryMb: number;
  readonly usedVcores: number;
  /** Free space on reserved nodes: held for the reserving app, free to nobody else. */
  readonly reservedMemoryMb: number;
  readonly reservedVcores: number;
  /** ApplicationMaster containers held, in all. */
  readonly amContainers: number;
  readonly amMemoryMb: number;
  readonly amVcores: number;
  /** Task containers held, in all. */
  readonly taskContainers: number;
  readonly taskMemoryMb: number;
  readonly taskVcores: number;
  /** AMs of admitted apps that have no container yet: charged from admission, as YARN does. */
  readonly unplacedAmMemoryMb: number;
  readonly unplacedAmVcores: number;
  /** Admitted apps that have not ended. */
  readonly admittedApps: number;
  /** Apps whose AM holds a container. */
  readonly runningApps: number;
  /** Admitted apps whose AM has no container yet. */
  readonly pendingApps: number;
  /** Submitted apps held by admission control. */
  readonly waitingApps: number;
  /** Container asks (AMs and tasks) not yet allocated. */
  readonly pendingContainers: number;
}

/** Allocated memory over total memory: the utilisation MARP's controller reads. */
export function memoryUtilisation(view: ClusterView): number {
  return view.capacity.memoryMb > 0 ? view.usedMemoryMb / view.capacity.memoryMb : 0;
}
