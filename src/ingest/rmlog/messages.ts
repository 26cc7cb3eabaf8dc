// Turns the message of a log entry into an RmEvent, by the logger's simple class name and the
// message's opening words (docs/log-formats.md sections 3-9). A message that opens like a line of interest
// but cannot be read (cut off, garbled) is a reject with a reason; any other message is ignored.
// Parsing uses indexOf and anchored, non-nested regular expressions so that no line, however
// long, makes a pattern backtrack.

import { isAppId, isAttemptId, isContainerId, newEvent } from '../../model/rm-events.js';
import type { EventKind, RmEvent } from '../../model/rm-events.js';

export interface Rejection {
  readonly reject: string;
}

export type MessageResult = RmEvent | Rejection | null;

/** Where a message came from: the entry's first line and time. */
export interface EntryContext {
  readonly lineNumber: number;
  readonly timeMs: number;
  /** The logger's simple class name. */
  readonly logger: string;
}

export type MessageParser = (message: string, at: EntryContext) => MessageResult;

function reject(reason: string): Rejection {
  return { reject: reason };
}

function event(kind: EventKind, at: EntryContext): RmEvent {
  return newEvent(kind, at.lineNumber, at.timeMs);
}

// ---- value readers ---------------------------------------------------------------------------

interface ResourceValue {
  readonly memoryMb: number;
  readonly vcores: number;
}

const RESOURCE = /^<+memory:(\d+), vCores:(\d+)/;

/** `<memory:1024, vCores:1>` (3.x may add `, yarn.io/gpu: 1`) starting at `start`, or null. */
function resourceAt(text: string, start: number): ResourceValue | null {
  if (start < 0) return null;
  const m = RESOURCE.exec(text.slice(start, start + 64));
  if (!m) return null;
  const memoryMb = Number(m[1]);
  const vcores = Number(m[2]);
  // The store keeps 32-bit integers: a larger figure is not a resource YARN prints.
  return memoryMb <= INT32_MAX && vcores <= INT32_MAX ? { memoryMb, vcores } : null;
}

const INT32_MAX = 2147483647;

/** The token after `label` up to the first of `stops` (one to three characters) or the end, or null if `label` is absent. */
function valueAfter(text: string, label: string, stops = ' ,', from = 0): string | null {
  const at = text.indexOf(label, from);
  if (at < 0) return null;
  const start = at + label.length;
  // Character codes, not a string search per character: this runs several times per event.
  const s0 = stops.charCodeAt(0);
  const s1 = stops.length > 1 ? stops.charCodeAt(1) : s0;
  const s2 = stops.length > 2 ? stops.charCodeAt(2) : s1;
  const length = text.length;
  let end = start;
  while (end < length) {
    const c = text.charCodeAt(end);
    if (c === s0 || c === s1 || c === s2) break;
    end++;
  }
  return text.slice(start, end);
}

/** The leading token (up to a space) of `text`. */
function firstToken(text: string): string {
  const space = text.indexOf(' ');
  return space < 0 ? text : text.slice(0, space);
}

const STATE_CHANGE = /^(\S+) State change from ([A-Z_]+) to ([A-Z_]+)(?: on event ?= ?([A-Z_]+))?/;
const TRANSITION = /^(\S+) Node Transitioned from ([A-Z_]+) to ([A-Z_]+)/;
const STATE_NAME = /^[A-Z_]+$/;

/** Makes a container the event's subject; false if the id is malformed. */
function setContainer(e: RmEvent, containerId: string): boolean {
  if (!isContainerId(containerId)) return false;
  e.subject = containerId;
  return true;
}

/**
 * The fields of a printed `Container: [ContainerId: c, (AllocationRequestId: n, Version: n, )NodeId: n,
 * NodeHttpAddress: a, Resource: <...>, Priority: p, Token: ..., ]`.
 */
function readContainerBlock(e: RmEvent, text: string, from: number): boolean {
  const id = valueAfter(text, 'ContainerId: ', ' ,]', from);
  if (!id || !setContainer(e, id)) return false;
  const node = valueAfter(text, 'NodeId: ', ' ,]', from);
  const resource = resourceAt(text, text.indexOf('Resource: <', from) + 'Resource: '.length);
  const priority = valueAfter(text, 'Priority: ', ' ,]', from);
  if (!node || !resource || priority === null || !/^-?\d+$/.test(priority) || Math.abs(Number(priority)) > INT32_MAX) return false;
  e.nodeId = node;
  e.memoryMb = resource.memoryMb;
  e.vcores = resource.vcores;
  e.priority = Number(priority);
  return true;
}

// ---- per-class parsers ---------------------------------------------------------------------

const NODE_REGISTERED = /^NodeManager from node (\S+?)\(cmPort: (\d+) httpPort: (\d+)\) registered with capability: /;

const resourceTrackerService: MessageParser = (m, at) => {
  if (!m.startsWith('NodeManager from node ')) return null;
  const match = NODE_REGISTERED.exec(m);
  const capability = resourceAt(m, m.indexOf('capability: ') + 'capability: '.length);
  const nodeId = valueAfter(m, 'assigned nodeId ', ' ,');
  if (!match || !capability || !nodeId) return reject('unreadable NodeManager registration');
  const e = event('node_registered', at);
  e.nodeId = nodeId;
  e.memoryMb = capability.memoryMb;
  e.vcores = capability.vcores;
  e.extra = JSON.stringify({ host: match[1], cmPort: Number(match[2]), httpPort: Number(match[3]) });
  return e;
};

const ACCEPTED = /^Accepted application (\S+) from user: (\S+?), in queue: ([^,\s]+)/;

/** Lines printed by CapacityScheduler, FairScheduler and FifoScheduler. */
const scheduler: MessageParser = (m, at) => {
  if (m.startsWith(UPDATE_RESOURCE)) return nodeResourceUpdate(m, at);
  if (m.startsWith('Added node ') || m.startsWith('Removed node ')) {
    const added = m.startsWith('Added');
    const nodeId = firstToken(m.slice(added ? 11 : 13));
    const label = m.indexOf('clusterResource: ') >= 0 ? 'clusterResource: ' : 'cluster capacity: ';
    const total = resourceAt(m, m.indexOf(label) + label.length);
    if (!nodeId || !total || m.indexOf(label) < 0) return reject(`unreadable ${added ? 'Added' : 'Removed'} node line`);
    const e = event(added ? 'node_added' : 'node_removed', at);
    e.nodeId = nodeId;
    e.memoryMb = total.memoryMb;
    e.vcores = total.vcores;
    return e;
  }
  if (m.startsWith('Accepted application ')) {
    const match = ACCEPTED.exec(m);
    if (!match || !isAppId(match[1]!)) return reject('unreadable Accepted application line');
    const e = event('app_accepted', at);
    e.subject = match[1]!;
    e.user = match[2]!;
    e.queue = match[3]!;
    return e;
  }
  if (m.startsWith('Application Attempt ') || (m.startsWith('Application appattempt_') && m.includes(' is done.'))) {
    if (!m.includes(' is done. finalState=')) return null;
    const attemptId = firstToken(m.slice(m.indexOf('appattempt_')));
    const state = valueAfter(m, 'finalState=', ' ,');
    if (!isAttemptId(attemptId) || !state) return reject('unreadable attempt done line');
    const e = event('attempt_done', at);
    e.subject = attemptId;
    e.toState = state;
    return e;
  }
  if (m.includes(' released container ') && (m.startsWith('Application attempt ') || m.startsWith('Application appattempt_'))) {
    const containerId = valueAfter(m, ' released container ');
    const nodeId = valueAfter(m, 'on node: host: ');
    const withEvent = valueAfter(m, ' with event: ');
    const e = event('container_released', at);
    if (!containerId || !setContainer(e, containerId) || !nodeId || !withEvent) {
      return reject('unreadable released container line');
    }
    e.nodeId = nodeId;
    e.toState = withEvent;
    return e;
  }
  if (m.startsWith('Initialized CapacityScheduler with ')) {
    const calculator = valueAfter(m, 'calculator=class ', ' ,');
    const minimum = resourceAt(m, m.indexOf('minimumAllocation=') + 'minimumAllocation='.length);
    const maximum = resourceAt(m, m.indexOf('maximumAllocation=') + 'maximumAllocation='.length);
    if (!calculator || !minimum || !maximum) return reject('unreadable CapacityScheduler initialisation line');
    const e = event('scheduler_config', at);
    e.detail = calculator.slice(calculator.lastIndexOf('.') + 1);
    // 2.8+ also prints whether it schedules asynchronously, and how often (docs/model.md 3.8).
    const asynchronous = valueAfter(m, 'asynchronousScheduling=', ' ,') === 'true';
    const intervalMs = Number.parseInt(valueAfter(m, 'asyncScheduleInterval=', ' ,m') ?? '', 10);
    e.extra = JSON.stringify({
      calculator,
      minimumAllocation: minimum,
      maximumAllocation: maximum,
      ...(asynchronous ? { asyncScheduling: true, ...(intervalMs >= 1 ? { asyncSchedulingIntervalMs: intervalMs } : {}) } : {}),
    });
    return e;
  }
  if (m.startsWith('Null container completed')) return event('container_unknown', at);
  if (m.startsWith('Container container_') && / of (?:unknown application attempt|finished application) /.test(m)) {
    const e = event('container_unknown', at);
    if (!setContainer(e, firstToken(m.slice('Container '.length)))) return reject('unreadable unknown-container line');
    e.detail = valueAfter(m, ' completed with event ', ' ,');
    return e;
  }
  if (m.startsWith('Preempting container')) {
    // `Preempting container (prio=<p>res=<R>) from queue <q>`: no container id is printed.
    const e = event('preemption', at);
    e.detail = 'preempting';
    e.queue = valueAfter(m, ' from queue ', ' ,');
    return e;
  }
  if (m.startsWith('Killing container')) {
    const e = event('preemption', at);
    e.detail = 'killing';
    const block = m.indexOf('Container: [');
    if (block < 0 || !readContainerBlock(e, m, block)) return reject('unreadable Killing container line');
    return e;
  }
  return null;
};

const resourceManager: MessageParser = (m, at) => {
  if (m.startsWith('Using Scheduler: ')) {
    const e = event('scheduler_class', at);
    e.detail = firstToken(m.slice('Using Scheduler: '.length));
    return e;
  }
  // The RM's HA state: the scheduler runs only while it is active. The reader keeps only the
  // transitions that start or end an active period between banners (failover.ts).
  if (m.startsWith('Transitioned to active state')) return haTransition('rm_started', 'STANDBY', 'ACTIVE', at);
  if (m.startsWith('Transitioned to standby state')) return haTransition('rm_stopped', 'ACTIVE', 'STANDBY', at);
  return null;
};

/** An HA transition as an RM start or stop, told from a banner's by its states. */
function haTransition(kind: 'rm_started' | 'rm_stopped', from: string, to: string, at: EntryContext): RmEvent {
  const e = event(kind, at);
  e.fromState = from;
  e.toState = to;
  return e;
}

const rmNode: MessageParser = (m, at) => {
  if (!m.includes(' Node Transitioned from ')) return null;
  const match = TRANSITION.exec(m);
  if (!match) return reject('unreadable Node Transitioned line');
  const e = event('node_state', at);
  e.nodeId = match[1]!;
  e.fromState = match[2]!;
  e.toState = match[3]!;
  return e;
};

const rmApp: MessageParser = (m, at) => {
  if (!m.includes(' State change from ')) return null;
  const match = STATE_CHANGE.exec(m);
  if (!match || !isAppId(match[1]!)) return reject('unreadable RMAppImpl state change');
  const e = event('app_state', at);
  e.subject = match[1]!;
  e.fromState = match[2]!;
  e.toState = match[3]!;
  e.detail = match[4] ?? null;
  return e;
};

const rmAppAttempt: MessageParser = (m, at) => {
  if (m.includes(' State change from ')) {
    const match = STATE_CHANGE.exec(m);
    if (!match || !isAttemptId(match[1]!)) return reject('unreadable RMAppAttemptImpl state change');
    const e = event('attempt_state', at);
    e.subject = match[1]!;
    e.fromState = match[2]!;
    e.toState = match[3]!;
    e.detail = match[4] ?? null;
    return e;
  }
  if (m.startsWith('Storing attempt: ') && m.includes('MasterContainer: Container: [')) {
    const e = event('am_container', at);
    if (!readContainerBlock(e, m, m.indexOf('MasterContainer: '))) return reject('unreadable Storing attempt line');
    return e;
  }
  return null;
};

const rmContainer: MessageParser = (m, at) => {
  // The most frequent line of all: read with indexOf rather than a regular expression.
  const marker = m.indexOf(' Container Transitioned from ');
  if (marker < 0) return null;
  const to = m.indexOf(' to ', marker + 29);
  const e = event('container_state', at);
  if (to < 0 || !setContainer(e, m.slice(0, marker))) return reject('unreadable Container Transitioned line');
  e.fromState = m.slice(marker + 29, to);
  e.toState = firstToken(m.slice(to + 4));
  if (!STATE_NAME.test(e.fromState) || !STATE_NAME.test(e.toState)) return reject('unreadable Container Transitioned line');
  return e;
};

/** SchedulerNode (2.6-2.8), FiCaSchedulerNode (2.2 CS, 3.x), FSSchedulerNode (2.2 FS). */
const schedulerNode: MessageParser = (m, at) => {
  const assigned = m.startsWith('Assigned container ');
  if (!assigned && !m.startsWith('Released container ')) return null;
  const containerId = firstToken(m.slice('Assigned container '.length));
  const capacity = resourceAt(m, m.indexOf(' of capacity ') + ' of capacity '.length);
  const host = valueAfter(m, ' on host ', ' ,');
  const e = event(assigned ? 'container_assigned' : 'container_released', at);
  if (!setContainer(e, containerId) || !capacity || !host || m.indexOf(' of capacity ') < 0) {
    return reject(`unreadable ${assigned ? 'Assigned' : 'Released'} container line`);
  }
  e.nodeId = host;
  e.memoryMb = capacity.memoryMb;
  e.vcores = capacity.vcores;
  return e;
};

const LEAF_QUEUE_INIT = /^Initializing (\S+)\s*$/;

/** CS LeafQueue (and AbstractLeafQueue in 3.4): allocation, completion and activation lines. */
const leafQueue: MessageParser = (m, at) => {
  if (m.startsWith('assignedContainer application')) {
    const e = event('container_assigned', at);
    const block = m.indexOf('container=Container: [');
    if (block < 0 || !readContainerBlock(e, m, block)) return reject('unreadable LeafQueue assignedContainer line');
    e.queue = valueAfter(m, ' queue=', ': ,');
    return e;
  }
  if (m.startsWith('completedContainer container=')) {
    const e = event('container_released', at);
    if (!readContainerBlock(e, m, 0)) return reject('unreadable LeafQueue completedContainer line');
    e.queue = valueAfter(m, ' queue=', ': ,');
    return e;
  }
  if (m.startsWith('Application ') && m.includes(' activated in queue: ')) {
    const e = event('app_activated', at);
    const appId = firstToken(m.slice('Application '.length));
    if (!isAppId(appId)) return reject('unreadable application activated line');
    e.subject = appId;
    e.user = valueAfter(m, ' from user: ', ' ,');
    e.queue = valueAfter(m, ' activated in queue: ', ' ,');
    return e;
  }
  // `Initializing <queue>` is a multi-line entry: the reader collects its block (wantsContinuation).
  return null;
};

/** CS 2.8+: `assignedContainer application attempt=<att> container=<id|null> queue=<q> ...`. */
const containerAllocator: MessageParser = (m, at) => {
  if (!m.startsWith('assignedContainer ')) return null;
  const attemptId = valueAfter(m, 'application attempt=');
  const containerId = valueAfter(m, ' container=');
  if (!attemptId || !isAttemptId(attemptId) || containerId === null) {
    return reject('unreadable AbstractContainerAllocator assignedContainer line');
  }
  const e = event('container_assigned', at);
  // 2.10+ prints container=null (the id is set later); the attempt is then the subject.
  if (containerId === 'null') e.subject = attemptId;
  else if (!setContainer(e, containerId)) return reject('malformed container id in assignedContainer line');
  const queue = valueAfter(m, ' queue=');
  // 2.8 prints the allocator object instead of the queue name.
  e.queue = queue && !queue.includes('@') ? queue : null;
  return e;
};

/** FiCaSchedulerApp, FSAppAttempt (2.6+), FSSchedulerApp (2.2). */
const schedulerApp: MessageParser = (m, at) => {
  if (m.startsWith('Completed container: ')) {
    const e = event('container_completed', at);
    const containerId = firstToken(m.slice('Completed container: '.length));
    const state = valueAfter(m, ' in state: ', ' ,');
    if (!setContainer(e, containerId) || !state) return reject('unreadable Completed container line');
    e.toState = state;
    e.detail = valueAfter(m, ' event:', ' ,');
    return e;
  }
  if (m.startsWith('Making reservation: ')) {
    const e = event('reservation', at);
    e.detail = 'reserved';
    e.nodeId = valueAfter(m, 'node=', ' ,');
    e.subject = valueAfter(m, 'app_id=', ' ,');
    return e;
  }
  if (m.startsWith('Application ') && m.includes(' unreserved ')) {
    const e = event('reservation', at);
    e.detail = 'unreserved';
    e.subject = firstToken(m.slice('Application '.length));
    e.nodeId = valueAfter(m, ' on node ', ' ,');
    return e;
  }
  return null;
};

const DRAINED = 'checking for deactivate of application :';

/**
 * AppSchedulingInfo: `checking for deactivate of application :<app>`, printed (2.2 to 3.x) when
 * an AM's allocate call sets the ANY ask of one of its priorities to zero containers: the AM
 * wants no more of that kind for now (docs/log-formats.md 3.6).
 */
const appSchedulingInfo: MessageParser = (m, at) => {
  if (!m.startsWith(DRAINED)) return null;
  const appId = m.slice(DRAINED.length).trim();
  if (!isAppId(appId)) return reject('unreadable checking-for-deactivate line');
  const e = event('ask_drained', at);
  e.subject = appId;
  return e;
};

const AUDIT_KEY =
  /(?:^|\s)(USER|IP|OPERATION|TARGET|RESULT|APPID|APPATTEMPTID|CONTAINERID|RESOURCE|CALLERCONTEXT|CALLERSIGNATURE|QUEUENAME|NODELABEL|DESCRIPTION|PERMISSIONS)=/g;

/** RMAuditLogger: KEY=value pairs separated by tabs (or runs of spaces when pasted). */
const auditLogger: MessageParser = (m, at) => {
  // As written by the RM the pairs are TAB-separated: read the few keys needed directly (audit
  // lines are up to one entry in six of a 2.x log). Pasted logs turn tabs into runs of spaces and values
  // contain single spaces: those are split on the known keys instead.
  const field = m.includes('\t') ? (key: string) => tabField(m, key) : spacedFields(m);
  const user = field('USER');
  const operation = field('OPERATION');
  if (!user || !operation) return reject('unreadable RMAuditLogger line');
  const e = event('audit', at);
  e.detail = operation;
  e.user = user;
  const containerId = field('CONTAINERID');
  if (containerId) {
    if (!setContainer(e, containerId)) return reject('malformed container id in audit line');
  } else {
    e.subject = field('APPATTEMPTID') ?? field('APPID') ?? null;
  }
  const resourceText = field('RESOURCE');
  const resource = resourceText ? resourceAt(resourceText, 0) : null;
  if (resource) {
    e.memoryMb = resource.memoryMb;
    e.vcores = resource.vcores;
  }
  e.queue = field('QUEUENAME') ?? null;
  e.toState = field('RESULT') ?? null;
  return e;
};

/** `KEY=` and `\tKEY=` for each audit key, made once rather than per line. */
const AUDIT_NEEDLES = new Map<string, { readonly first: string; readonly later: string }>();

/** The value of `KEY=` in a TAB-separated audit message, or undefined. */
function tabField(m: string, key: string): string | undefined {
  let needles = AUDIT_NEEDLES.get(key);
  if (needles === undefined) {
    needles = { first: `${key}=`, later: `\t${key}=` };
    AUDIT_NEEDLES.set(key, needles);
  }
  let at = m.startsWith(needles.first) ? 0 : m.indexOf(needles.later);
  if (at < 0) return undefined;
  if (at > 0) at++;
  const start = at + key.length + 1;
  const end = m.indexOf('\t', start);
  return (end < 0 ? m.slice(start) : m.slice(start, end)).trim();
}

function spacedFields(m: string): (key: string) => string | undefined {
  const fields: Record<string, string> = {};
  let key: string | null = null;
  let valueStart = 0;
  AUDIT_KEY.lastIndex = 0;
  for (let match = AUDIT_KEY.exec(m); match; match = AUDIT_KEY.exec(m)) {
    if (key !== null) fields[key] = m.slice(valueStart, match.index).trim();
    key = match[1]!;
    valueStart = match.index + match[0].length;
  }
  if (key !== null) fields[key] = m.slice(valueStart).trim();
  return (k) => fields[k];
}

/** RMAppManager$ApplicationSummary: key=value pairs joined by `,`, with `\,` `\=` `\\` `\n` escapes. */
const applicationSummary: MessageParser = (m, at) => {
  const fields = parseSummary(m);
  const appId = fields['appId'];
  if (!appId || !isAppId(appId) || !fields['state'] || !('finishTime' in fields)) {
    return reject('unreadable ApplicationSummary line');
  }
  const e = event('app_summary', at);
  e.subject = appId;
  e.user = fields['user'] ?? null;
  e.queue = fields['queue'] ?? null;
  e.toState = fields['state'];
  e.detail = fields['finalStatus'] ?? null;
  e.extra = JSON.stringify(fields);
  return e;
};

export function parseSummary(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  let start = 0;
  while (start < text.length) {
    const eq = text.indexOf('=', start);
    if (eq < 0) break;
    // The value runs to the next comma that is not escaped.
    let end = text.indexOf(',', eq + 1);
    while (end > 0 && isEscaped(text, end)) end = text.indexOf(',', end + 1);
    if (end < 0) end = text.length;
    const value = text.slice(eq + 1, end);
    fields[text.slice(start, eq).trim()] = value.includes('\\') ? unescapeSummary(value) : value;
    start = end + 1;
  }
  return fields;
}

/** Whether the character at `index` follows an odd number of backslashes. */
function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && text.charCodeAt(i) === 92; i--) backslashes++;
  return backslashes % 2 === 1;
}

function unescapeSummary(value: string): string {
  return value.replace(/\\(.)/g, (_all, c: string) => (c === 'n' ? '\n' : c));
}

const UPDATE_RESOURCE = 'Update resource on node: ';

/**
 * `Update resource on node: <name> from: <resource>, to: <resource>` (3.x adds ` in <t> ms`):
 * updateNodeResource changed a node's size (an admin's `rmadmin -updateNodeResource`, a
 * NodeManager registering again with another size, a decommissioning node shrunk to what it
 * holds). The name is the node's host (host:port where the scheduler includes ports in node
 * names). The WARN `... with the same resource: <r>` changes nothing and is ignored.
 */
function nodeResourceUpdate(m: string, at: EntryContext): MessageResult {
  const nameEnd = m.indexOf(' ', UPDATE_RESOURCE.length);
  if (nameEnd > 0 && m.startsWith(' with the same resource', nameEnd)) return null;
  const fromAt = m.indexOf(' from: ', UPDATE_RESOURCE.length);
  const toAt = m.indexOf(', to: ', fromAt);
  const from = fromAt === nameEnd ? resourceAt(m, fromAt + ' from: '.length) : null;
  const to = toAt > 0 ? resourceAt(m, toAt + ', to: '.length) : null;
  if (!from || !to || nameEnd <= UPDATE_RESOURCE.length) return reject('unreadable Update resource on node line');
  const e = event('node_resource', at);
  e.nodeId = m.slice(UPDATE_RESOURCE.length, nameEnd);
  e.memoryMb = to.memoryMb;
  e.vcores = to.vcores;
  e.extra = JSON.stringify({ fromMemoryMb: from.memoryMb, fromVcores: from.vcores });
  return e;
}

/**
 * `Container <id> completed with event <E>, but corresponding RMContainer doesn't exist.` (2.8+),
 * and node size updates (nodeResourceUpdate).
 */
const yarnScheduler: MessageParser = (m, at) => {
  if (m.startsWith(UPDATE_RESOURCE)) return nodeResourceUpdate(m, at);
  if (!m.startsWith('Container container_') || !m.includes("RMContainer doesn't exist")) return null;
  const e = event('container_unknown', at);
  if (!setContainer(e, firstToken(m.slice('Container '.length)))) return reject('unreadable unknown-container line');
  e.detail = valueAfter(m, ' completed with event ', ' ,');
  return e;
};

/** The parser for each logger simple name that prints lines of interest. */
export const MESSAGE_PARSERS: ReadonlyMap<string, MessageParser> = new Map<string, MessageParser>([
  ['ResourceTrackerService', resourceTrackerService],
  ['CapacityScheduler', scheduler],
  ['FairScheduler', scheduler],
  ['FifoScheduler', scheduler],
  ['ResourceManager', resourceManager],
  ['RMNodeImpl', rmNode],
  ['RMAppImpl', rmApp],
  ['RMAppAttemptImpl', rmAppAttempt],
  ['RMContainerImpl', rmContainer],
  ['SchedulerNode', schedulerNode],
  ['FiCaSchedulerNode', schedulerNode],
  ['FSSchedulerNode', schedulerNode],
  ['LeafQueue', leafQueue],
  ['AbstractLeafQueue', leafQueue],
  ['AbstractContainerAllocator', containerAllocator],
  ['FiCaSchedulerApp', schedulerApp],
  ['FSAppAttempt', schedulerApp],
  ['FSSchedulerApp', schedulerApp],
  ['AbstractYarnScheduler', yarnScheduler],
  ['AppSchedulingInfo', appSchedulingInfo],
  ['RMAuditLogger', auditLogger],
  ['RMAppManager$ApplicationSummary', applicationSummary],
]);

/** The loggers some of whose entries carry facts on their continuation lines (wantsContinuation). */
export const CONTINUATION_LOGGERS: ReadonlySet<string> = new Set(['ResourceManager', 'LeafQueue', 'AbstractLeafQueue']);

/** A multi-line entry whose continuation lines the reader collects. */
export type Continuation = { readonly kind: 'banner' } | { readonly kind: 'queue'; readonly queue: string };

const BANNER: Continuation = { kind: 'banner' };

/**
 * Multi-line entries whose continuation lines carry facts: the STARTUP/SHUTDOWN banner of the
 * ResourceManager and the CS queue set-up block. Everything else's continuations are counted only.
 */
export function wantsContinuation(logger: string, message: string): Continuation | null {
  if (logger === 'ResourceManager') {
    return message.startsWith('STARTUP_MSG') || message.startsWith('SHUTDOWN_MSG') ? BANNER : null;
  }
  if (!CONTINUATION_LOGGERS.has(logger)) return null;
  const m = LEAF_QUEUE_INIT.exec(message);
  return m ? { kind: 'queue', queue: m[1]! } : null;
}

/** The banner's event from its continuation lines: a start (with the version) or a stop. */
export function bannerEvent(lines: readonly string[], at: EntryContext): RmEvent | null {
  const starting = lines.some((l) => l.startsWith('STARTUP_MSG: Starting ResourceManager'));
  const stopping = lines.some((l) => l.startsWith('SHUTDOWN_MSG: Shutting down ResourceManager'));
  if (!starting && !stopping) return null;
  const e = event(starting ? 'rm_started' : 'rm_stopped', at);
  const versionLine = lines.find((l) => l.startsWith('STARTUP_MSG:   version = '));
  if (versionLine) {
    e.detail = versionLine.slice('STARTUP_MSG:   version = '.length).trim();
  }
  return e;
}

const CONFIG_LINE = /^(\w+) = (.*?)(?: \[=.*)?$/;

/** The CS queue block's event: the queue and its settings (queueConfigFrom) as `extra`. */
export function queueConfigEvent(queue: string, lines: readonly string[], at: EntryContext): RmEvent {
  const e = event('queue_config', at);
  e.queue = queue;
  e.extra = queueConfigFrom(lines);
  return e;
}

/** The CS queue block's `key = value [= formula]` lines as a JSON object. */
export function queueConfigFrom(lines: readonly string[]): string {
  const config: Record<string, string> = {};
  for (const line of lines) {
    const m = CONFIG_LINE.exec(line.trim());
    if (m) config[m[1]!] = m[2]!.trim();
  }
  return JSON.stringify(config);
}
