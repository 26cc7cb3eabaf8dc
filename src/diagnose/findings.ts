// What `diagnose` reports: one finding per thing that went wrong in the recorded cluster, with
// its span of log time and the evidence the log gives for it. Plain data (printed as a table
// or as JSON). docs/architecture.md section 8 says how each kind is found.

export type FindingKind = 'am-deadlock' | 'stall' | 'activation-wait' | 'reservation-storm' | 'lost-node';

/** Kinds in the order a report lists them when they start at the same time. */
export const FINDING_KINDS: readonly FindingKind[] = ['am-deadlock', 'stall', 'lost-node', 'reservation-storm', 'activation-wait'];

/** At most this many app ids are listed in a finding's evidence (the counts are exact). */
export const LISTED_APPS = 50;

/** Nothing was allocated while apps waited and no waiting app's container fitted any node. */
export interface StallEvidence {
  /** Apps waiting for an AM container whose AM fitted no node (the first LISTED_APPS). */
  readonly pendingApps: readonly string[];
  readonly pendingAppCount: number;
  /** Apps whose AM held a container and that had no task container yet (the first LISTED_APPS). */
  readonly starvedApps: readonly string[];
  readonly starvedAppCount: number;
  /** Containers held during the stall (nothing was allocated or released in it). */
  readonly amContainers: number;
  readonly taskContainers: number;
  readonly amMemoryMb: number;
  readonly amVcores: number;
  readonly usedMemoryMb: number;
  /** The cluster as the scheduler last printed it (else the registered nodes in service). */
  readonly capacityMemoryMb: number;
  readonly capacityVcores: number;
  /** AMs' share of the capacity, as the scheduler's resource calculator measures it. */
  readonly amShare: number | null;
  /** The most free memory on one node in service; null when the log does not place every container. */
  readonly largestFreeMemoryMb: number | null;
  /** The smallest task container the log allocated (or the minimum allocation): what a starved app asks for at least. */
  readonly taskAskMemoryMb: number | null;
}

/** Whether a stall's cluster had no node at all: no NodeManager registered, so nothing could fit. */
export function noNodeRegistered(evidence: StallEvidence): boolean {
  return evidence.capacityMemoryMb === 0 && evidence.amContainers === 0 && evidence.taskContainers === 0;
}

/** An app that waited long for its AM container while some node had room for it. */
export interface ActivationWait {
  readonly appId: string;
  /** From its acceptance (or its attempt's start) to its AM container, or the log's end. */
  readonly startMs: number;
  readonly endMs: number;
  /** How much of that time some node in service had room for its AM. */
  readonly roomMs: number;
  /** CapacityScheduler: its "activated" line (past the AM limit), or null (not printed, or never). */
  readonly activatedMs: number | null;
}

export interface ActivationWaitEvidence {
  readonly queue: string | null;
  readonly scheduler: string | null;
  readonly apps: readonly ActivationWait[];
}

export interface ReservationStormEvidence {
  /** New reservations (containers going NEW -> RESERVED) in the span. */
  readonly reservations: number;
  /** FairScheduler "Making reservation" lines (a new reservation or a retry) in the span. */
  readonly reservationLines: number;
  readonly allocations: number;
  /** Apps by new reservations, most first (the first LISTED_APPS). */
  readonly apps: readonly { readonly appId: string; readonly reservations: number }[];
}

export interface LostNodeEvidence {
  readonly nodeId: string;
  /** How it left: LOST, UNHEALTHY, DECOMMISSIONED, REBOOTED, SHUTDOWN, or REMOVED. */
  readonly state: string;
  /** Containers it held when it left; their end states. */
  readonly containers: number;
  readonly amContainers: number;
  readonly memoryMb: number;
  readonly endStates: Readonly<Record<string, number>>;
  /** Apps that lost containers (the first LISTED_APPS). */
  readonly apps: readonly string[];
}

interface FindingBase {
  /** Log times (epoch ms of the RM's clock). */
  readonly startMs: number;
  readonly endMs: number;
  /** The span lasts until the log ends (still going on then). */
  readonly untilLogEnd: boolean;
  /** One line for a table. */
  readonly summary: string;
}

export type Finding =
  | (FindingBase & { readonly kind: 'am-deadlock' | 'stall'; readonly evidence: StallEvidence })
  | (FindingBase & { readonly kind: 'activation-wait'; readonly evidence: ActivationWaitEvidence })
  | (FindingBase & { readonly kind: 'reservation-storm'; readonly evidence: ReservationStormEvidence })
  | (FindingBase & { readonly kind: 'lost-node'; readonly evidence: LostNodeEvidence });

/** The thresholds of a diagnosis. */
export interface DiagnoseOptions {
  /** The NodeManager heartbeat interval the cluster ran with (the log does not print it). */
  readonly heartbeatMs: number;
  /** A stall is reported when it lasts at least this many heartbeats. */
  readonly stallHeartbeats: number;
  /** An app is reported when it waited at least this long for its AM while a node had room for it. */
  readonly activationWaitMs: number;
  /** A reservation storm: at least this many new reservations in a window, and no fewer than allocations. */
  readonly stormReservations: number;
  readonly stormWindowMs: number;
}

export const DEFAULT_DIAGNOSE_OPTIONS: DiagnoseOptions = {
  heartbeatMs: 1000,
  stallHeartbeats: 60,
  activationWaitMs: 60_000,
  stormReservations: 10,
  stormWindowMs: 60_000,
};
