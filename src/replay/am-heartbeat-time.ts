// When a MapReduce AM heartbeats: every interval from its registration (its anchor). Apply times
// a task's start by it and the AM parts time their calls by it, so it sits apart from both.

import type { AppRun } from './state.js';

/** The AM's next heartbeat at or after `timeMs`: its heartbeats fall every interval from its registration. */
export function nextAmHeartbeatMs(app: AppRun, timeMs: number, intervalMs: number): number {
  const anchor = app.amAnchorMs;
  if (!(timeMs > anchor)) return anchor;
  return anchor + Math.ceil((timeMs - anchor) / intervalMs) * intervalMs;
}
