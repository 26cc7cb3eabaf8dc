// Whether a run models tasks sharing their nodes' cores (docs/model.md, "Contention"), and the
// CPU its ApplicationMasters use: the run's setting, stored in its description so a run repeats.
// The model itself is replay/node-contention.ts.

/** `--contention on|off`: force the model on or off; absent, the source's default holds. */
export type ContentionChoice = 'on' | 'off';
export const CONTENTION_CHOICES: readonly ContentionChoice[] = ['on', 'off'];

/** The CPU an ApplicationMaster uses, besides what its tasks use. */
export interface ContentionSettings {
  /** Cores an AM uses from its container's allocation until it registers (JVM start, job set-up). */
  readonly amStartupCores: number;
  /** Cores an AM uses from its registration until its container is released (tracking its tasks). */
  readonly amWorkCores: number;
}

/**
 * Chosen, not measured: an AM's JVM start and job set-up keep about one core busy; once running,
 * a MapReduce AM's heartbeats and task bookkeeping take a fraction of one.
 */
export const DEFAULT_CONTENTION: ContentionSettings = { amStartupCores: 1, amWorkCores: 0.25 };

/**
 * The run's contention settings, null when off. `byDefault`: the source's default: on for
 * scenarios and for the hardware and context-aware capacity what-ifs, off for RM logs and SWIM
 * traces, whose recorded durations already include the contention they ran under.
 */
export function contentionSettings(choice: ContentionChoice | undefined, byDefault: boolean): ContentionSettings | null {
  const on = choice === undefined ? byDefault : choice === 'on';
  return on ? DEFAULT_CONTENTION : null;
}
