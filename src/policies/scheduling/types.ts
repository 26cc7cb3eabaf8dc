// The contract between the replay engine and a scheduling policy: the policy keeps the order in
// which apps with outstanding requests are offered a node; the engine asks it which app to serve
// and applies the allocation.

export interface SchedulingPolicy {
  readonly name: string;
  /** The app (by index) now has outstanding requests. Idempotent. */
  addDemand(app: number): void;
  /** The app has no outstanding request left. Idempotent. */
  removeDemand(app: number): void;
  /**
   * The first app, in the policy's order, whose next request `fits` the node on offer; -1 if none.
   * `fits` is the engine's test of that app's next request against the node.
   */
  pick(fits: (app: number) => boolean): number;
}
