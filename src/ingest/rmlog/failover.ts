// Which of an RM's HA transitions are failovers (docs/log-formats.md section 9, docs/model.md
// 12.2). Every RM, HA or not, logs "Transitioned to active state" soon after its STARTUP_MSG
// banner, and "Transitioned to standby state" just before its SHUTDOWN_MSG banner (an HA RM also
// goes to standby once as it starts, before it is elected). Those are the banners' own start and
// stop. Between banners, though, an HA RM that goes to standby has stopped scheduling: its
// scheduler and every node and app it held are gone (ResourceManager.transitionToStandby stops
// the active services), and going active again it starts afresh, recovering the apps from the
// state store, with NodeManagers registering again. Those two transitions are an RM stop and
// start like the banners', without the start-up wait (the RM's cluster timestamp, which that
// wait counts from, is the process's).
//
// Read line by line, a standby is held until the next event: the SHUTDOWN banner coming first,
// soon after, makes it the banner's own; anything else, or the end of the read, makes it a failover.

import type { RmEvent } from '../../model/rm-events.js';

/**
 * The longest a SHUTDOWN banner comes after the standby that is its own: stopping the RM's
 * other services takes milliseconds to seconds. An RM left in standby and stopped later had
 * stopped scheduling at the standby.
 */
const SHUTDOWN_AFTER_STANDBY_MS = 60_000;

/** Where the RM is, as far as this read has seen. */
type Phase = 'unknown' | 'starting' | 'active' | 'standby';

export class FailoverFilter {
  private phase: Phase = 'unknown';
  /** A standby transition not yet known to be a failover's. */
  private held: RmEvent | null = null;

  /** Whether a standby waits for the next event to say whose it is (settle). */
  get holding(): boolean {
    return this.held !== null;
  }

  /**
   * An RM start or stop (banner or HA transition) about to be emitted: whether it is kept. A
   * standby that may be a failover's is held instead (see settle and release).
   */
  keep(e: RmEvent): boolean {
    if (e.toState === null) {
      this.phase = e.kind === 'rm_started' ? 'starting' : 'unknown';
      return true;
    }
    if (e.kind === 'rm_started') {
      // The first activation after a STARTUP banner is the banner's own start; again while
      // active says nothing new. Any other ends a failover (one before this read, if unknown).
      const failover = this.phase === 'standby' || this.phase === 'unknown';
      this.phase = 'active';
      return failover;
    }
    // An HA RM goes to standby as it starts, before it is elected: no stop.
    if (this.phase === 'starting' || this.phase === 'standby') return false;
    this.phase = 'standby';
    this.held = e;
    return false;
  }

  /**
   * The next event `e` after a held standby says whose it is: the SHUTDOWN banner's own (null:
   * it is dropped), or else a failover's (returned, to be emitted before `e`).
   */
  settle(e: RmEvent): RmEvent | null {
    const held = this.held!;
    this.held = null;
    const ownShutdown = e.kind === 'rm_stopped' && e.toState === null && e.timeMs - held.timeMs <= SHUTDOWN_AFTER_STANDBY_MS;
    return ownShutdown ? null : held;
  }

  /** The held standby when the read ends there (a failover's: the log ends in standby), or null. */
  release(): RmEvent | null {
    const held = this.held;
    this.held = null;
    return held;
  }
}
