// Hadoop's size-based weight of an app, in both schedulers: log2(1 + its demand in MB), demand
// being the memory it holds plus what its outstanding asks would take (the FairScheduler's
// getAppWeight under sizebasedweight; the CapacityScheduler's FairOrderingPolicy with
// enable-size-based-weight). Larger apps weigh more, but only logarithmically.

export function sizeBasedWeight(demandMemoryMb: number): number {
  return Math.log1p(demandMemoryMb) / Math.LN2;
}
