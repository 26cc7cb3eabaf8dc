// What a MapReduce ApplicationMaster decides on each heartbeat about its reduces
// (RMContainerAllocator; docs/model.md 6): reducer slow-start, ramp-up of reduce asks from
// the headroom, ramp-down, and the preemption of its own reducers when maps starve. Pure
// arithmetic on the AM's counts; the engine applies the decision.

export interface MapReduceAmView {
  readonly totalMaps: number;
  readonly completedMaps: number;
  /** Map asks outstanding at the RM. */
  readonly scheduledMaps: number;
  /** Maps holding containers. */
  readonly assignedMaps: number;
  /** Reduce asks outstanding at the RM. */
  readonly scheduledReduces: number;
  /** Reduces holding containers. */
  readonly assignedReduces: number;
  /** Reduces not yet asked for. */
  readonly pendingReduces: number;
  readonly reduceStarted: boolean;
  readonly mapMemoryMb: number;
  readonly mapVcores: number;
  readonly reduceMemoryMb: number;
  readonly reduceVcores: number;
  readonly headroomMemoryMb: number;
  readonly headroomVcores: number;
  /** How long the oldest outstanding map ask has waited (ms). */
  readonly oldestMapWaitMs: number;
  /** Whether the RM schedules by vcores too (DominantResourceCalculator, FairScheduler). */
  readonly countsVcores: boolean;
}

export interface MapReduceAmSettings {
  readonly reduceSlowStart: number;
  readonly reduceRampupLimit: number;
  readonly reducePreemptionLimit: number;
  readonly reducerPreemptDelayMs: number;
  /** -1: never preempt regardless of headroom. */
  readonly reducerUnconditionalPreemptDelayMs: number;
}

export interface MapReduceAmDecision {
  reduceStarted: boolean;
  /** Reduce asks to move back from the RM to pending (ramp-down, or before preempting). */
  rampDown: number;
  /** Pending reduces to ask for. */
  rampUp: number;
  /** Running reduces to kill so that maps can run. */
  preempt: number;
}

/** One AM heartbeat: preemptReducesIfNeeded, then scheduleReduces, as RMContainerAllocator does. */
export function decideReduces(view: MapReduceAmView, settings: MapReduceAmSettings): MapReduceAmDecision {
  const decision: MapReduceAmDecision = { reduceStarted: view.reduceStarted, rampDown: 0, rampUp: 0, preempt: 0 };
  let scheduledReduces = view.scheduledReduces;
  let pendingReduces = view.pendingReduces;

  const preempted = preemptReduces(view, settings);
  if (preempted !== null) {
    // Every reduce ask goes back to pending first, so new containers go to maps.
    decision.rampDown = scheduledReduces;
    pendingReduces += scheduledReduces;
    scheduledReduces = 0;
    decision.preempt = preempted;
  }

  if (pendingReduces === 0) return decision;
  if (!decision.reduceStarted) {
    if (view.completedMaps < Math.ceil(settings.reduceSlowStart * view.totalMaps)) return decision;
    decision.reduceStarted = true;
  }
  if (view.scheduledMaps === 0) {
    // All maps assigned: ask for every remaining reduce at once.
    decision.rampUp = pendingReduces;
    return decision;
  }
  const completedFraction = view.totalMaps === 0 ? 1 : view.completedMaps / view.totalMaps;
  const limitMemoryMb = resourceLimit(view, 'memory');
  const limitVcores = resourceLimit(view, 'vcores');
  const rampFraction = Math.min(completedFraction, settings.reduceRampupLimit);
  const idealReduceMemoryMb = Math.trunc(limitMemoryMb * rampFraction);
  const idealReduceVcores = Math.trunc(limitVcores * rampFraction);
  const idealMapMemoryMb = limitMemoryMb - idealReduceMemoryMb;
  const idealMapVcores = limitVcores - idealReduceVcores;
  const netMaps = view.scheduledMaps + view.assignedMaps;
  let finalReduceMemoryMb = idealReduceMemoryMb;
  let finalReduceVcores = idealReduceVcores;
  if (containersThatFit(view, idealMapMemoryMb, idealMapVcores, view.mapMemoryMb, view.mapVcores) >= netMaps) {
    // Maps have enough: what they leave unused goes to reduces.
    finalReduceMemoryMb += idealMapMemoryMb - view.mapMemoryMb * netMaps;
    finalReduceVcores += idealMapVcores - view.mapVcores * netMaps;
  }
  const netReduces = scheduledReduces + view.assignedReduces;
  const ramp = containersThatFit(
    view,
    finalReduceMemoryMb - view.reduceMemoryMb * netReduces,
    finalReduceVcores - view.reduceVcores * netReduces,
    view.reduceMemoryMb,
    view.reduceVcores,
  );
  if (ramp > 0) decision.rampUp = Math.min(ramp, pendingReduces);
  else if (ramp < 0) decision.rampDown += Math.min(-ramp, scheduledReduces);
  return decision;
}

/**
 * preemptReducesIfNeeded: with no map running and maps waiting, kill reduces if the maps have
 * waited past the unconditional delay, or if the headroom minus running reduces cannot hold one
 * map. Returns how many to kill, or null when nothing is preempted.
 */
function preemptReduces(view: MapReduceAmView, settings: MapReduceAmSettings): number | null {
  if (view.assignedMaps > 0 || view.scheduledMaps === 0) return null;
  if (view.assignedReduces === 0 && view.scheduledReduces === 0) return null;
  const unconditional = settings.reducerUnconditionalPreemptDelayMs;
  if (unconditional >= 0 && view.oldestMapWaitMs > unconditional) return preemptCount(view, settings);
  const availableMemoryMb = resourceLimit(view, 'memory') - view.reduceMemoryMb * view.assignedReduces;
  const availableVcores = resourceLimit(view, 'vcores') - view.reduceVcores * view.assignedReduces;
  if (containersThatFit(view, availableMemoryMb, availableVcores, view.mapMemoryMb, view.mapVcores) > 0) return null;
  const hanging = settings.reducerPreemptDelayMs <= 0 || view.oldestMapWaitMs > settings.reducerPreemptDelayMs;
  return hanging ? preemptCount(view, settings) : 0;
}

/** min(max(reduces for one map, preemption limit), reduces for every waiting map), at most those running. */
function preemptCount(view: MapReduceAmView, settings: MapReduceAmSettings): number {
  const forOneMap = containersToCover(view, view.mapMemoryMb, view.mapVcores);
  const forLimit = containersToCover(
    view,
    Math.trunc(resourceLimit(view, 'memory') * settings.reducePreemptionLimit),
    Math.trunc(resourceLimit(view, 'vcores') * settings.reducePreemptionLimit),
  );
  const forAllMaps = containersToCover(view, view.mapMemoryMb * view.scheduledMaps, view.mapVcores * view.scheduledMaps);
  return Math.min(Math.min(Math.max(forOneMap, forLimit), forAllMaps), view.assignedReduces);
}

/** getResourceLimit: headroom plus what the job's running tasks hold. */
function resourceLimit(view: MapReduceAmView, resource: 'memory' | 'vcores'): number {
  return resource === 'memory'
    ? view.headroomMemoryMb + view.mapMemoryMb * view.assignedMaps + view.reduceMemoryMb * view.assignedReduces
    : view.headroomVcores + view.mapVcores * view.assignedMaps + view.reduceVcores * view.assignedReduces;
}

/** ResourceCalculatorUtils.computeAvailableContainers (Java integer division truncates). */
function containersThatFit(view: MapReduceAmView, memoryMb: number, vcores: number, needMemoryMb: number, needVcores: number): number {
  const byMemory = Math.trunc(memoryMb / needMemoryMb);
  if (!view.countsVcores || needVcores <= 0) return byMemory;
  return Math.min(byMemory, Math.trunc(vcores / needVcores));
}

/** ResourceCalculatorUtils.divideAndCeilContainers: reduces needed to free this much. */
function containersToCover(view: MapReduceAmView, memoryMb: number, vcores: number): number {
  const byMemory = Math.ceil(memoryMb / view.reduceMemoryMb);
  if (!view.countsVcores || view.reduceVcores <= 0) return byMemory;
  return Math.max(byMemory, Math.ceil(vcores / view.reduceVcores));
}
