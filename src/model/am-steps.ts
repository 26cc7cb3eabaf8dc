// An AM that acts only on its own steps, a fixed period apart from its app's submission (SLS's
// simulated MapReduce AM: `yarn.sls.am.heartbeat.interval.ms`). Each step first handles the
// response of the previous step's allocate call, then calls allocate again: news that reaches the
// RM (a container granted, a task ended) is pulled by the first step at or after it and acted on
// at the step after that.

/**
 * When such an AM asks for what news at `triggerMs` releases: the second of its steps (every
 * `stepMs` from `anchorMs`, the first at anchorMs + stepMs) at or after the trigger.
 */
export function amStepAskMs(anchorMs: number, triggerMs: number, stepMs: number): number {
  const pulledAtStep = Math.max(1, Math.ceil((triggerMs - anchorMs) / stepMs));
  return anchorMs + (pulledAtStep + 1) * stepMs;
}
