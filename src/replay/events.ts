// The replay's events: their kinds, the order of kinds that fall at the same instant (the
// kernel orders by time, then this priority, then sequence: docs/architecture.md, "The replay
// engine"), and the one runtime shape every event but a container's end has. The engine
// schedules and dispatches them; what each does is its handler's business there.

import type { AppRun, Container, NodeState, StageState } from './state.js';

// Event kinds, and their order among events at the same instant: what a log recorded happening
// from outside (below), then releases (they free room), then the scheduler's periodic update and an admission controller's step (both read the
// cluster as the releases left it), then AM-side work (asks arrive), then submissions, then
// admissions made at a node's heartbeat (the AM they admit can be placed by the heartbeats at
// that instant), then node heartbeats (which serve all of the above), then timeouts (an app
// that could still be served at the deadline instant is served).
// CONTAINER_DONE = 0: a container's own end (state.ts).
export const AM_DONE = 1;
export const SCHEDULER_UPDATE = 2;
export const AM_REGISTERED = 3;
export const STAGE_REQUEST = 4;
export const AM_HEARTBEAT = 5;
export const SUBMIT = 6;
export const NODE_HEARTBEAT = 7;
export const APP_TIMEOUT = 8;
export const CONTROL_STEP = 9;
export const NODE_ADMISSION = 10;
// What a log recorded happening from outside (docs/model.md 12): nodes joining or leaving (and an
// RM restart losing its apps), a user's kill, an attempt's AM failing. First of all at their
// instant: what the log shows an app doing at the same millisecond came after (its containers
// ended by the RM's act), and every other event should see the change.
export const NODE_CHANGE = 11;
export const APP_KILL = 12;
export const AM_FAIL = 13;
export const APP_LOST = 14;
// A scheduler thread's pass over the nodes (continuous or asynchronous scheduling): with the
// node heartbeats, after the asks of its instant.
export const SCHEDULING_PASS = 15;
export const PRIORITY_OF_KIND: readonly number[] = [1, 1, 2, 3, 3, 3, 4, 6, 7, 2, 5, 0, 0, 0, 0, 6];

export interface AppEvent {
  readonly kind:
    | typeof AM_DONE
    | typeof AM_REGISTERED
    | typeof AM_HEARTBEAT
    | typeof SUBMIT
    | typeof APP_TIMEOUT
    | typeof APP_KILL
    | typeof APP_LOST
    | typeof AM_FAIL;
  readonly app: AppRun;
  /** For an attempt's own events: the attempt (AppRun.attempts) it belongs to; a later one makes it stale. */
  readonly token: number;
}

export interface StageEvent {
  readonly kind: typeof STAGE_REQUEST;
  readonly app: AppRun;
  readonly stage: StageState;
  /** The attempt that asked (see AppEvent.token). */
  readonly token: number;
}

export interface HeartbeatEvent {
  readonly kind: typeof NODE_HEARTBEAT;
  /** Null for the wheel's cursor: whichever node is due then. */
  readonly node: NodeState | null;
  readonly token: number;
  readonly timeMs: number;
}

export interface UpdateEvent {
  readonly kind: typeof SCHEDULER_UPDATE | typeof CONTROL_STEP | typeof NODE_CHANGE | typeof SCHEDULING_PASS;
}

/** The head of the admission queue is admitted at this node's heartbeat, if still valid. */
export interface NodeAdmissionEvent {
  readonly kind: typeof NODE_ADMISSION;
  readonly node: NodeState;
  readonly token: number;
}

export type Event = Container | AppEvent | StageEvent | HeartbeatEvent | UpdateEvent | NodeAdmissionEvent;

/**
 * The one runtime shape of every event but a container's end. The event loop reads `kind` from
 * every event; from two shapes V8 keeps that a fast inline check, from five (one per interface
 * above) it falls back to a generic lookup per event.
 */
export class ControlEvent {
  constructor(
    readonly kind: number,
    readonly app: AppRun | null,
    readonly stage: StageState | null,
    readonly node: NodeState | null,
    readonly token: number,
    readonly timeMs: number,
  ) {}
}

export function appEvent(kind: AppEvent['kind'], app: AppRun, token = 0): AppEvent {
  return new ControlEvent(kind, app, null, null, token, 0) as AppEvent;
}

export function stageEvent(app: AppRun, stage: StageState): StageEvent {
  return new ControlEvent(STAGE_REQUEST, app, stage, null, app.attempts, 0) as StageEvent;
}

export function heartbeatEvent(node: NodeState | null, token: number, timeMs: number): HeartbeatEvent {
  return new ControlEvent(NODE_HEARTBEAT, null, null, node, token, timeMs) as HeartbeatEvent;
}

export function updateEvent(kind: UpdateEvent['kind']): UpdateEvent {
  return new ControlEvent(kind, null, null, null, 0, 0) as UpdateEvent;
}

export function nodeAdmissionEvent(node: NodeState, token: number): NodeAdmissionEvent {
  return new ControlEvent(NODE_ADMISSION, null, null, node, token, 0) as NodeAdmissionEvent;
}
