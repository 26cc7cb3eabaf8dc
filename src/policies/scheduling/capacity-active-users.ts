// Who a CapacityScheduler leaf counts as its active users (docs/model.md 3.2), the divisor of the
// user limit and of the user's AM limit. Hadoop 2.8.5's ActiveUsersManager keeps, per user, the
// ids of their apps with asks outstanding; a user is in its set while that list is not empty. An
// app leaves the list when its asks fall to zero (AppSchedulingInfo.checkForDeactivation), but
// not when it is removed still asking (AppSchedulingInfo.stop clears the asks without telling the
// manager), so a user whose app was killed while asking stays in the set for good.
//
// The limits divide by the sum of the set's users' weights (1 each), taken only when the set
// changes (LeafQueue.sumActiveUsersTimesWeights, on activeUsersChanged), and a user counts only
// while the leaf holds it, i.e. while it has an app in the queue (removeApplicationAttempt drops
// a user whose last app leaves). Hadoop takes the sum at the first limit computed after the change;
// here it is taken at the change itself.

import type { CsQueue, CsUser } from './capacity-queues.js';

/** The user has one more app with asks outstanding. */
export function appStartsAsking(leaf: CsQueue, user: CsUser): void {
  if (user.appsWithAsks++ === 0 && user.appsRemovedAsking === 0) enter(leaf, user);
}

/** One of the user's apps has no asks outstanding any more. */
export function appStopsAsking(leaf: CsQueue, user: CsUser): void {
  if (--user.appsWithAsks === 0 && user.appsRemovedAsking === 0) leave(leaf, user);
}

/** The user's app is removed from the queue with asks still outstanding: its id stays in the set. */
export function appRemovedAsking(user: CsUser): void {
  user.appsRemovedAsking++;
}

function enter(leaf: CsQueue, user: CsUser): void {
  leaf.activeUserSet.add(user);
  recount(leaf);
}

function leave(leaf: CsQueue, user: CsUser): void {
  leaf.activeUserSet.delete(user);
  recount(leaf);
}

function recount(leaf: CsQueue): void {
  let users = 0;
  for (const user of leaf.activeUserSet) if (user.apps > 0) users++;
  leaf.activeUsers = users;
}
