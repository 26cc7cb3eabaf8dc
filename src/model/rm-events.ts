// The events the RM-log reader recognises, as flat records ready for the store (one per
// recognised log entry), and the YARN id helpers they need. Plain data shared by ingest and store.
//
// Column conventions: for container_released, `toState` is the RM event when the line names one
// (FINISHED, RELEASED, KILL, EXPIRE); for container_completed, `toState` is the container's final
// state and `detail` the event. Which class printed a line is not stored: the file and line
// number lead back to it.

export const EVENT_KINDS = [
  'rm_started', // STARTUP_MSG banner (detail = version; timed at the activation of an RM that waited in standby, extra.bannerMs = the banner's time); or an HA failover's "Transitioned to active state" (STANDBY -> ACTIVE)
  'rm_stopped', // SHUTDOWN_MSG banner; or an HA failover's "Transitioned to standby state" (ACTIVE -> STANDBY)
  'scheduler_class', // "Using Scheduler: <class>"; detail = class
  'scheduler_config', // CS "Initialized CapacityScheduler with calculator=..."; extra: calculator, min/max allocation
  'queue_config', // CS "Initializing <queue>" and its key = value block; extra: the keys
  'node_registered', // ResourceTrackerService; node, capability
  'node_added', // scheduler "Added node"; memory/vcores = new cluster total
  'node_removed', // scheduler "Removed node"; memory/vcores = new cluster total
  'node_state', // RMNodeImpl "Node Transitioned from X to Y"
  'app_state', // RMAppImpl "State change from X to Y"; detail = event (2.8+)
  'app_accepted', // scheduler "Accepted application ... from user: ..., in queue: ..."
  'app_activated', // CS LeafQueue "Application ... activated in queue" (passed the AM limit)
  'app_summary', // RMAppManager$ApplicationSummary; to_state = state, detail = finalStatus, extra = all fields
  'attempt_state', // RMAppAttemptImpl "State change from X to Y"
  'attempt_done', // scheduler "Application Attempt ... is done. finalState=S"
  'am_container', // RMAppAttemptImpl "Storing attempt: ... MasterContainer: Container: [...]"
  'container_state', // RMContainerImpl "Container Transitioned from X to Y"
  'container_assigned', // an allocation line (SchedulerNode, LeafQueue, AbstractContainerAllocator)
  'container_released', // a release line; to_state = the RM event, if printed
  'container_completed', // FiCaSchedulerApp/FSAppAttempt "Completed container: ... in state: S event:E"
  'container_unknown', // a completion the scheduler could not attribute ("Null container completed", unknown attempt)
  'ask_drained', // AppSchedulingInfo "checking for deactivate of application": an AM's ask for some priority went to zero
  'reservation', // FSAppAttempt "Making reservation" / "unreserved"; detail says which
  'preemption', // FairScheduler "Preempting container" / "Killing container"
  'audit', // RMAuditLogger; detail = OPERATION, extra = RESULT and the other fields
  'node_resource', // scheduler "Update resource on node: <name> from: <r>, to: <r>"; node_id = the name as printed, memory/vcores = the new size, extra: the old
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];

export interface RmEvent {
  kind: EventKind;
  lineNumber: number;
  timeMs: number;
  /**
   * The YARN id the entry is about: a container id for container events, an attempt id for
   * attempt events, an app id for app events. The app and attempt of a container follow from
   * its id, so they are not stored again (the store's rm_events view spells them out).
   */
  subject: string | null;
  nodeId: string | null;
  fromState: string | null;
  toState: string | null;
  memoryMb: number | null;
  vcores: number | null;
  priority: number | null;
  queue: string | null;
  user: string | null;
  detail: string | null;
  /** Further fields as JSON text (summaries, configuration blocks). */
  extra: string | null;
}

export function newEvent(kind: EventKind, lineNumber: number, timeMs: number): RmEvent {
  return {
    kind,
    lineNumber,
    timeMs,
    subject: null,
    nodeId: null,
    fromState: null,
    toState: null,
    memoryMb: null,
    vcores: null,
    priority: null,
    queue: null,
    user: null,
    detail: null,
    extra: null,
  };
}

/** How the lines read from a log were accounted for. */
export interface RmLineCounts {
  /** Lines that start a log entry (events, ignored entries, and entries whose message was rejected). */
  readonly entries: number;
  readonly events: number;
  readonly ignoredEntries: number;
  /** Lines that continue the entry above them (stack traces, banners, queue blocks). */
  readonly continuationLines: number;
  readonly rejectedLines: number;
  /**
   * Lines that began with NUL bytes (a log copied off a crashed machine: blocks the file system
   * allocated and never wrote), and those bytes: stripped, and the rest of each line read.
   */
  readonly nulPrefixedLines: number;
  readonly nulBytesStripped: number;
}

export const NO_LINES: RmLineCounts = Object.freeze({
  entries: 0,
  events: 0,
  ignoredEntries: 0,
  continuationLines: 0,
  rejectedLines: 0,
  nulPrefixedLines: 0,
  nulBytesStripped: 0,
});

/** `a` plus `sign` times `b`, count by count. */
export function combineLineCounts(a: RmLineCounts, b: RmLineCounts, sign: 1 | -1): RmLineCounts {
  return {
    entries: a.entries + sign * b.entries,
    events: a.events + sign * b.events,
    ignoredEntries: a.ignoredEntries + sign * b.ignoredEntries,
    continuationLines: a.continuationLines + sign * b.continuationLines,
    rejectedLines: a.rejectedLines + sign * b.rejectedLines,
    nulPrefixedLines: a.nulPrefixedLines + sign * b.nulPrefixedLines,
    nulBytesStripped: a.nulBytesStripped + sign * b.nulBytesStripped,
  };
}

/** What reading a log file counted, besides how its lines were accounted for. */
export interface RmFileCounts extends RmLineCounts {
  readonly lines: number;
  /** Entries whose time is earlier than the entry before them (kept, as written). */
  readonly backwardsTimestamps: number;
  readonly warnings: number;
  readonly errors: number;
  readonly firstTimeMs: number | null;
  readonly lastTimeMs: number | null;
}

// container_[e<epoch>_]<clusterTs>_<appSeq>_<attempt 2+ digits>_<container 6+ digits>: checked by
// isContainerId, character by character (any number of digits in each part is accepted).
const ATTEMPT_ID = /^appattempt_(\d+)_(\d+)_(\d+)$/;
const APP_ID = /^application_(\d+)_(\d+)$/;

export function isAppId(id: string): boolean {
  return APP_ID.test(id);
}

export function isContainerId(id: string): boolean {
  // By hand rather than a regular expression: every container event asks.
  if (!id.startsWith('container_')) return false;
  let at = 10;
  if (id.charCodeAt(at) === 101 /* e */) {
    at = digitsEnd(id, at + 1);
    if (at < 0 || id.charCodeAt(at) !== 95 /* _ */) return false;
    at++;
  }
  for (let group = 0; group < 4; group++) {
    at = digitsEnd(id, at);
    if (at < 0) return false;
    if (group < 3) {
      if (id.charCodeAt(at) !== 95) return false;
      at++;
    }
  }
  return at === id.length;
}

/** The index after the run of ASCII digits at `start`, or -1 when there is none. */
function digitsEnd(text: string, start: number): number {
  let at = start;
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c < 48 || c > 57) break;
    at++;
  }
  return at > start ? at : -1;
}

export function isAttemptId(id: string): boolean {
  return ATTEMPT_ID.test(id);
}
