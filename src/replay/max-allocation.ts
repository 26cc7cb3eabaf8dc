// The maximum allocation the RM validates and normalizes requests against (docs/model.md 1.3 and
// 12.1): yarn.scheduler.maximum-allocation-mb / -vcores, each capped by the largest node in
// service (AbstractYarnScheduler.updateMaximumAllocation, YARN-2604, Hadoop 2.7+): an ask larger
// than any node is refused, not left to wait for a node that never comes. The cap follows nodes
// joining, leaving, draining (a draining node's total is what it holds) and being resized, and
// is lifted through an RM's start-up wait, while its nodes register
// (ClusterNodeTracker.getMaxAllowedAllocation: while no more than the wait has passed).

import type { SchedulerSettings } from '../model/cluster.js';
import { normalizeRequest } from '../model/normalize.js';
import type { NormalizationRule, NormalizeResult, RequestKind } from '../model/normalize.js';
import type { Resources } from '../model/resources.js';
import { ABSENT } from './state.js';
import type { NodeState } from './state.js';

/**
 * `settings` with its maximum allocation capped by the largest node in service, per resource
 * (memory by the node with the most memory, vcores by the one with the most vcores); with no
 * node in service, as configured. Returns `settings` itself when nothing is capped.
 */
export function allocationSettings(settings: SchedulerSettings, nodes: readonly NodeState[]): SchedulerSettings {
  let largestMemoryMb = -1;
  let largestVcores = -1;
  for (const node of nodes) {
    if (node.state === ABSENT) continue;
    if (node.capacityMemoryMb > largestMemoryMb) largestMemoryMb = node.capacityMemoryMb;
    if (node.capacityVcores > largestVcores) largestVcores = node.capacityVcores;
  }
  const configured = settings.maximumAllocation;
  const memoryMb = largestMemoryMb < 0 ? configured.memoryMb : Math.min(configured.memoryMb, largestMemoryMb);
  const vcores = largestVcores < 0 ? configured.vcores : Math.min(configured.vcores, largestVcores);
  if (memoryMb === configured.memoryMb && vcores === configured.vcores) return settings;
  return { ...settings, maximumAllocation: { memoryMb, vcores } };
}

/**
 * The settings a replay normalizes and validates requests against, as its nodes and RMs come and
 * go (membership.ts tells it): taken again only when a request next needs them after a node
 * changed, since a draining node changes size at every container it ends.
 */
export class RequestSettings {
  /** `configured` capped by the nodes in service; null after they changed, until next needed. */
  private capped: SchedulerSettings | null = null;
  /** Until this time an RM's start-up wait lasts (-1: none). */
  private configuredUntilMs = -1;

  constructor(
    private readonly configured: SchedulerSettings,
    private readonly nodes: readonly NodeState[],
    private readonly rule: NormalizationRule,
  ) {}

  /** `ask` as the scheduler grants it at `nowMs` (normalized), or why the RM refuses it. */
  normalize(ask: Resources, nowMs: number, kind: RequestKind): NormalizeResult {
    return normalizeRequest(ask, this.at(nowMs), this.rule, kind);
  }

  /** A node joined, left or changed size: the largest node in service may have changed. */
  nodesChanged(): void {
    this.capped = null;
  }

  /** An RM (re)started: until `untilMs` the configured maximum applies. */
  rmStarted(untilMs: number): void {
    this.configuredUntilMs = untilMs;
  }

  at(nowMs: number): SchedulerSettings {
    if (nowMs <= this.configuredUntilMs) return this.configured;
    this.capped ??= allocationSettings(this.configured, this.nodes);
    return this.capped;
  }
}
