// When an RM's banners and HA transitions start and stop the cluster's RM (docs/log-formats.md
// section 9, docs/model.md 12.2). Every RM, HA or not, logs "Transitioned to active state" soon
// after its STARTUP_MSG banner, and "Transitioned to standby state" just before its SHUTDOWN_MSG
// banner. An HA RM also goes to standby as it starts, and stays there until it is elected: for
// minutes, or for as long as the other RM of its pair stays active. Between banners, an HA RM
// that goes to standby has stopped scheduling: its scheduler and every node and app it held are
// gone (ResourceManager.transitionToStandby stops the active services), and going active again
// it starts afresh, recovering the apps from the state store, with NodeManagers registering again.
//
// So an RM starts serving when it goes active, not at its banner: a banner is held until the RM
// is seen serving (its activation, or any line only an active RM writes), and when the RM had
// been waiting in standby its start is timed there, the banner's own time kept beside it (the
// start-up wait counts from the process's start). An RM never seen serving (the standby of a
// pair, restarted or shut down) neither starts nor stops the cluster. That is what lets both
// RMs' logs of a pair make one trace: only the active one's starts and stops are the cluster's.
//
// Read line by line, a standby is held until the next event: the SHUTDOWN banner coming first,
// soon after, makes it the banner's own; anything else, or the end of the read, makes it a
// failover. A SHUTDOWN banner after a failover's standby stops nothing more.

import type { EventKind, RmEvent } from '../../model/rm-events.js';

/**
 * The longest a SHUTDOWN banner comes after the standby that is its own: stopping the RM's
 * other services takes milliseconds to seconds. An RM left in standby and stopped later had
 * stopped scheduling at the standby.
 */
const SHUTDOWN_AFTER_STANDBY_MS = 60_000;

/**
 * Lines an RM writes while it is not serving: its scheduler's set-up (at start, and again as it
 * goes standby) and the admin operations it takes in standby (the audit of transitionToActive
 * itself comes after the activation). Any other event is an active RM's.
 */
const NOT_SERVING: ReadonlySet<EventKind> = new Set<EventKind>(['scheduler_class', 'scheduler_config', 'queue_config', 'audit']);

/**
 * Where the RM is, as far as this read has seen: `starting` after its banner (held), `electing`
 * when it went standby from there (an HA RM waiting to be elected; the banner still held),
 * `stopped` after its SHUTDOWN banner.
 */
type Phase = 'unknown' | 'starting' | 'electing' | 'active' | 'standby' | 'stopped';

/** Where the filter's decisions go: events to store, and entries that are none. */
export interface FailoverSink {
  emit(e: RmEvent): void;
  ignore(): void;
}

export class FailoverFilter {
  private phase: Phase = 'unknown';
  /** A standby transition not yet known to be a failover's. */
  private heldStandby: RmEvent | null = null;
  /** A STARTUP banner whose RM has not been seen serving yet. */
  private heldBanner: RmEvent | null = null;

  constructor(private readonly sink: FailoverSink) {}

  /** Whether an ordinary event must go through beforeEvent() first (something is held). */
  get holding(): boolean {
    return this.heldStandby !== null || this.heldBanner !== null;
  }

  /** An RM start or stop (a banner or an HA transition): emitted, held or left out. */
  change(e: RmEvent): void {
    if (e.toState === null) {
      if (e.kind === 'rm_started') this.banner(e);
      else this.shutdown(e);
    } else if (e.kind === 'rm_started') {
      this.activation(e);
    } else {
      this.standby(e);
    }
  }

  /** An event that is no RM start or stop comes next (call only while holding). */
  beforeEvent(e: RmEvent): void {
    if (this.heldStandby !== null) this.settleStandby(false);
    if (this.heldBanner !== null && !NOT_SERVING.has(e.kind)) this.releaseBanner(e);
  }

  /**
   * The read ends here: a held standby is a failover's (the log ends in standby); a banner held
   * since its RM went standby never served, one whose RM did not get that far is kept as it was.
   */
  finish(): void {
    if (this.heldStandby !== null) this.settleStandby(false);
    if (this.phase === 'electing') this.dropBanner();
    else if (this.heldBanner !== null) this.releaseBanner(this.heldBanner);
  }

  private banner(e: RmEvent): void {
    if (this.heldStandby !== null) this.settleStandby(false);
    // An RM that starts again before it served: that start never happened for the cluster.
    if (this.heldBanner !== null) this.dropBanner();
    this.heldBanner = e;
    this.phase = 'starting';
  }

  private shutdown(e: RmEvent): void {
    const held = this.heldStandby;
    if (held !== null) this.settleStandby(e.timeMs - held.timeMs <= SHUTDOWN_AFTER_STANDBY_MS);
    if (this.heldBanner !== null) {
      // Shut down before it ever served: neither its start nor its stop is the cluster's.
      this.dropBanner();
      this.sink.ignore();
    } else if (this.phase === 'standby' || this.phase === 'stopped') {
      // The RM stopped scheduling at its failover's standby, before (or is down already).
      this.sink.ignore();
    } else {
      this.sink.emit(e);
    }
    this.phase = 'stopped';
  }

  private activation(e: RmEvent): void {
    if (this.heldStandby !== null) this.settleStandby(false);
    switch (this.phase) {
      case 'starting':
      case 'electing':
        // The banner's own activation: the banner is the start (timed here if it waited in standby).
        this.releaseBanner(e);
        this.sink.ignore();
        break;
      case 'active':
        this.sink.ignore();
        break;
      default:
        // Active again after a failover (one before this read, when unknown; a restart whose
        // banner the log lacks, when stopped).
        this.sink.emit(e);
        this.phase = 'active';
    }
  }

  private standby(e: RmEvent): void {
    switch (this.phase) {
      case 'starting':
        // An HA RM as it starts, before it is elected.
        this.phase = 'electing';
        this.sink.ignore();
        break;
      case 'electing':
      case 'standby':
      case 'stopped':
        this.sink.ignore();
        break;
      default:
        this.heldStandby = e;
        this.phase = 'standby';
    }
  }

  /** The held standby: the SHUTDOWN banner's own (`own`, dropped) or a failover's (emitted). */
  private settleStandby(own: boolean): void {
    const held = this.heldStandby!;
    this.heldStandby = null;
    if (own) {
      this.sink.ignore();
      this.phase = 'unknown';
    } else {
      this.sink.emit(held);
    }
  }

  /**
   * The held banner's RM is serving from `at` on (its activation, or the first line only an
   * active RM writes): the banner is its start, as it was when the RM went active at once, else
   * timed at `at` with its own time as `bannerMs` in extra.
   */
  private releaseBanner(at: RmEvent): void {
    const banner = this.heldBanner!;
    this.heldBanner = null;
    if (this.phase === 'electing') {
      banner.extra = JSON.stringify({ bannerMs: banner.timeMs });
      banner.timeMs = at.timeMs;
    }
    this.phase = 'active';
    this.sink.emit(banner);
  }

  private dropBanner(): void {
    this.heldBanner = null;
    this.sink.ignore();
    this.phase = 'unknown';
  }
}
