// Fast paths for the messages met most often (docs/log-formats.md sections 3, 4, 5 and 8), read in
// place: in the block of lines the line source decoded, from the message's start, without cutting
// the message out. Each reads one exact shape of its line; a message of any other shape, and every
// line that would be rejected, is left to the logger's parser in messages.ts (the fast path returns
// null), which reads it as it always has. So a fast path has only to agree with that parser on the
// lines it accepts; each says why it does.
//
// Why: the general parsers cut the message out, then search it once per value and check each id and
// state apart; here one sticky regular expression reads the whole shape at the message's start and
// captures the values kept. V8 runs such an expression in compiled code, several times faster than
// the same checks made character by character in JavaScript.
//
// The expressions keep the rule of messages.ts: each is anchored (sticky, at the message's start),
// and each repeated class is followed by a character outside it, so no line makes one backtrack
// more than its length. None of their classes matches a CR or LF, so a match stays within its line
// (a CRLF line's CR lies just past the message); a value that holds a CR inside the line is left to
// the general parser, by checking what follows a match's last token.

import { newEvent } from '../../model/rm-events.js';
import type { EventKind, RmEvent } from '../../model/rm-events.js';
import type { VersionClues } from './version.js';

/** Where an entry is, and the version clues of its read (the reader keeps one and refills it per entry). */
export interface InPlaceEntry {
  lineNumber: number;
  timeMs: number;
  readonly clues: VersionClues;
}

/** Reads the message text[start, end) of an entry of its logger into an event; null leaves it to the general parser. */
export type InPlaceParser = (text: string, start: number, end: number, entry: InPlaceEntry) => RmEvent | null;

const INT32_MAX = 2147483647;
const SPACE = 32;
const COMMA = 44;

/**
 * The match of `pattern` (sticky) at `start` whose last token ends where the general parser's
 * would: at the message's end, or at one of the stop characters that end that token.
 */
function matchAt(pattern: RegExp, text: string, start: number, end: number, stop: number, stop2 = stop, stop3 = stop2): RegExpExecArray | null {
  pattern.lastIndex = start;
  const match = pattern.exec(text);
  if (match === null) return null;
  const next = pattern.lastIndex;
  if (next === end) return match;
  const c = text.charCodeAt(next);
  return next < end && (c === stop || c === stop2 || c === stop3) ? match : null;
}

/** The match of `pattern` (sticky) at `start`: for expressions whose classes exclude CR and LF and stop as the general parser's. */
function matchHere(pattern: RegExp, text: string, start: number): RegExpExecArray | null {
  pattern.lastIndex = start;
  return pattern.exec(text);
}

/** The match of `pattern` (sticky) at `start` if it takes the whole message text[start, end). */
function matchWhole(pattern: RegExp, text: string, start: number, end: number): RegExpExecArray | null {
  pattern.lastIndex = start;
  const match = pattern.exec(text);
  return match !== null && pattern.lastIndex === end ? match : null;
}

/**
 * Sets the event's memory and vcores from the digits of a resource read as `<<<memory:M, vCores:V`;
 * false (a reject, for the general parser) above 32 bits, or when the resource does not lie within
 * the 64 characters resourceAt reads (so its figures could differ from these).
 */
function setResource(e: RmEvent, angles: string, memory: string, vcores: string): boolean {
  if (angles.length + 'memory:'.length + memory.length + ', vCores:'.length + vcores.length > 64) return false;
  const memoryMb = Number(memory);
  const vcoresValue = Number(vcores);
  if (memoryMb > INT32_MAX || vcoresValue > INT32_MAX) return false;
  e.memoryMb = memoryMb;
  e.vcores = vcoresValue;
  return true;
}

/** `value` trimmed as String.prototype.trim does (trim() is called only when an end may be white space). */
function trimmed(value: string): string {
  if (value.length === 0) return value;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  return first > 32 && first < 127 && last > 32 && last < 127 ? value : value.trim();
}

function event(kind: EventKind, entry: InPlaceEntry): RmEvent {
  return newEvent(kind, entry.lineNumber, entry.timeMs);
}

// A container id as isContainerId accepts it, when a character other than a digit or `_` follows.
const CONTAINER = String.raw`container_(?:e\d+_)?\d+_\d+_\d+_\d+`;

// A container record in its 2.2 - 2.8 shape, from its id to its closing bracket (docs/log-formats.md
// section 2), capturing the id, node, `<`s, memory, vcores and priority. readContainerBlock finds
// each label it looks for first where it is matched here: the values between hold no spaces.
const RECORD =
  String.raw`ContainerId: (${CONTAINER}), (?:Version: \d+, )?NodeId: ([^ ,\]\r\n]+), NodeHttpAddress: [^ ,\r\n]*, ` +
  String.raw`Resource: (<+)memory:(\d+), vCores:(\d+)>, Priority: (-?\d+), ` +
  String.raw`Token: (?:null|Token \{ kind: ContainerToken, service: [^ ,}\r\n]* \}), \]`;

/** Sets the event's fields from RECORD's groups, the first at m[at]; false where readContainerBlock would not read them. */
function setRecord(e: RmEvent, m: RegExpExecArray, at: number): boolean {
  const priority = Number(m[at + 5]);
  if (!setResource(e, m[at + 2]!, m[at + 3]!, m[at + 4]!) || Math.abs(priority) > INT32_MAX) return false;
  e.subject = m[at]!;
  e.nodeId = m[at + 1]!;
  e.priority = priority;
  return true;
}

// ---- per-class fast paths --------------------------------------------------------------------

const TRANSITION = new RegExp(String.raw`(${CONTAINER}) Container Transitioned from ([A-Z_]+) to ([A-Z_]+)`, 'y');

/**
 * `<container> Container Transitioned from <A> to <B>`, B ending the message or followed by a space.
 * rmContainer finds the same: the marker is its first occurrence (an id holds no space), the first
 * ' to ' after it ends A (states hold no space), and B is the token up to the next space.
 */
const rmContainer: InPlaceParser = (text, start, end, entry) => {
  const m = matchAt(TRANSITION, text, start, end, SPACE);
  if (m === null) return null;
  const e = event('container_state', entry);
  e.subject = m[1]!;
  e.fromState = m[2]!;
  e.toState = m[3]!;
  return e;
};

const APP_STATE = /(application_\d+_\d+) State change from ([A-Z_]+) to ([A-Z_]+)(?: on event(=| = )([A-Z_]+))?/y;
const ATTEMPT_STATE = /(appattempt_\d+_\d+_\d+) State change from ([A-Z_]+) to ([A-Z_]+)(?: on event(=| = )([A-Z_]+))?/y;

/**
 * `<id> State change from <A> to <B>`, then nothing, ` on event=<E>` or ` on event = <E>`: the
 * message whole. STATE_CHANGE in messages.ts reads the same id, A, B and E (each [A-Z_]+ takes its
 * whole run, and the event ends the message), and the id is one isAppId (isAttemptId) accepts.
 */
const rmApp: InPlaceParser = (text, start, end, entry) => {
  const m = matchWhole(APP_STATE, text, start, end);
  if (m === null) return null;
  // VersionClues.observe reads the same from the message: the event's spelling, or its absence.
  entry.clues.appStateChange(m[4] === undefined ? 'none' : m[4] === '=' ? 'unspaced' : 'spaced');
  return stateChange('app_state', m, entry);
};

const STORING_ATTEMPT = new RegExp(
  String.raw`Storing attempt: AppId: application_\d+_\d+ AttemptId: appattempt_\d+_\d+_\d+ MasterContainer: Container: \[${RECORD}`,
  'y',
);

/**
 * State changes, and `Storing attempt: AppId: <app> AttemptId: <attempt> MasterContainer: <record>`,
 * the message whole (so it holds no ' State change from ', which rmAppAttempt tests first).
 */
const rmAppAttempt: InPlaceParser = (text, start, end, entry) => {
  const m = matchWhole(ATTEMPT_STATE, text, start, end);
  if (m !== null) return stateChange('attempt_state', m, entry);
  const stored = matchWhole(STORING_ATTEMPT, text, start, end);
  if (stored === null) return null;
  const e = event('am_container', entry);
  return setRecord(e, stored, 1) ? e : null;
};

function stateChange(kind: EventKind, m: RegExpExecArray, entry: InPlaceEntry): RmEvent {
  const e = event(kind, entry);
  e.subject = m[1]!;
  e.fromState = m[2]!;
  e.toState = m[3]!;
  e.detail = m[5] ?? null;
  return e;
}

const NODE_CONTAINER = new RegExp(
  String.raw`(Assigned|Released) container (${CONTAINER}) of capacity (<+)memory:(\d+), vCores:(\d+)> on host ([^ ,\r\n]+)`,
  'y',
);

/**
 * `Assigned container <c> of capacity <resource> on host <node>...` (or `Released container`). As
 * schedulerNode reads it: the id is the token after the opening words, and ' of capacity ' and
 * ' on host ' first occur where they are matched here (nothing before them holds a space but the
 * opening words); the node is the token up to a space or comma.
 */
const schedulerNode: InPlaceParser = (text, start, end, entry) => {
  const m = matchAt(NODE_CONTAINER, text, start, end, SPACE, COMMA);
  if (m === null) return null;
  const e = event(m[1] === 'Assigned' ? 'container_assigned' : 'container_released', entry);
  if (!setResource(e, m[3]!, m[4]!, m[5]!)) return null;
  e.subject = m[2]!;
  e.nodeId = m[6]!;
  return e;
};

/**
 * `Application attempt <attempt> released container <c> on node: host: <node> #containers=<n>
 * available=<r> used=<r> with event: <E>` (CS, FS): scheduler's released-container branch (no
 * opening it tests before matches), and each label it looks for first occurs where it is matched
 * here (between them are ids, numbers, resources and tokens without spaces). 2.7+ prints the
 * node's resources, up to 2.6 its memory in MB only (docs/log-formats.md section 2).
 */
const NODE_RESOURCE = String.raw`(?:\d+|<memory:\d+(?:, vCores:\d+)?>)`;
const ATTEMPT_RELEASED = new RegExp(
  String.raw`Application attempt appattempt_\d+_\d+_\d+ released container (${CONTAINER}) on node: host: ([^ ,\r\n]+) #containers=\d+ available=${NODE_RESOURCE} used=${NODE_RESOURCE} with event: ([^ ,\r\n]+)`,
  'y',
);

/**
 * `Application Attempt <attempt> is done. finalState=<S>` (CS), `Application <attempt> is done.
 * finalState=<S>` (FS): scheduler's attempt-done branch, whose first `appattempt_` and
 * `finalState=` are the ones matched here.
 */
const ATTEMPT_DONE = /Application (?:Attempt )?(appattempt_\d+_\d+_\d+) is done\. finalState=([^ ,\r\n]+)/y;

/**
 * `Accepted application <app> from user: <user>, in queue: <queue>`: ACCEPTED in messages.ts reads
 * the same (its lazy user part ends at the first `, in queue: `, and this user holds no comma).
 */
const ACCEPTED = /Accepted application (application_\d+_\d+) from user: ([^\s,]+), in queue: ([^,\s]+)/y;

/** CapacityScheduler, FairScheduler and FifoScheduler: released containers, attempts done, apps accepted. */
const scheduler: InPlaceParser = (text, start, end, entry) => {
  const m = matchAt(ATTEMPT_RELEASED, text, start, end, SPACE, COMMA);
  if (m !== null) {
    const e = event('container_released', entry);
    e.subject = m[1]!;
    e.nodeId = m[2]!;
    e.toState = m[3]!;
    return e;
  }
  const done = matchAt(ATTEMPT_DONE, text, start, end, SPACE, COMMA);
  if (done !== null) {
    const e = event('attempt_done', entry);
    e.subject = done[1]!;
    e.toState = done[2]!;
    return e;
  }
  const accepted = matchHere(ACCEPTED, text, start);
  if (accepted !== null) {
    const e = event('app_accepted', entry);
    e.subject = accepted[1]!;
    e.user = accepted[2]!;
    e.queue = accepted[3]!;
    return e;
  }
  return null;
};

const COMPLETED = new RegExp(String.raw`Completed container: (${CONTAINER}) in state: ([^ ,\r\n]+) event:([^ ,\r\n]*)`, 'y');

/**
 * `Completed container: <c> in state: <S> event:<E>` (FiCaSchedulerApp, FSAppAttempt,
 * FSSchedulerApp), S and E tokens up to a space or comma (E may be empty). schedulerApp reads the
 * same: ' in state: ' and ' event:' first occur where they are matched here.
 */
const schedulerApp: InPlaceParser = (text, start, end, entry) => {
  const m = matchAt(COMPLETED, text, start, end, SPACE, COMMA);
  if (m === null) return null;
  const e = event('container_completed', entry);
  e.subject = m[1]!;
  e.toState = m[2]!;
  e.detail = m[3]!;
  return e;
};

const LEAF_QUEUE_CONTAINER = new RegExp(
  String.raw`(completedContainer|assignedContainer application attempt=appattempt_\d+_\d+_\d+) container=Container: \[${RECORD} queue=([^: ,\r\n]*)`,
  'y',
);

/**
 * CS LeafQueue, 2.6 - 2.7: `assignedContainer application attempt=<attempt> container=<record>
 * queue=<q>: ...` and `completedContainer container=<record> queue=<q>: ...`, the record in its 2.2 -
 * 2.7 shape with its token. leafQueue and readContainerBlock read the same: each label they look for
 * first occurs where it is matched here (the values between hold no spaces), the priority is the
 * token before the comma, the queue the token up to a colon, space or comma. Only `LeafQueue`'s
 * allocation line is a version clue (VersionClues.observe), not 3.4's `AbstractLeafQueue`'s.
 */
function leafQueue(versionClue: boolean): InPlaceParser {
  return (text, start, end, entry) => {
    const e = leafQueueContainer(text, start, end, entry);
    if (versionClue && e !== null && e.kind === 'container_assigned') entry.clues.leafQueueAssignment();
    return e;
  };
}

function leafQueueContainer(text: string, start: number, end: number, entry: InPlaceEntry): RmEvent | null {
  // The queue's token ends at a colon, space or comma (the colon of `<queue>: capacity=...`).
  const m = matchAt(LEAF_QUEUE_CONTAINER, text, start, end, 58 /* : */, SPACE, COMMA);
  if (m === null) return null;
  const e = event(m[1] === 'completedContainer' ? 'container_released' : 'container_assigned', entry);
  if (!setRecord(e, m, 2)) return null;
  e.queue = m[8]!;
  return e;
}

const DRAINED = /checking for deactivate of application :(application_\d+_\d+)/y;

/** `checking for deactivate of application :<app>`, the id ending the message (so nothing to trim). */
const appSchedulingInfo: InPlaceParser = (text, start, end, entry) => {
  const m = matchWhole(DRAINED, text, start, end);
  if (m === null) return null;
  const e = event('ask_drained', entry);
  e.subject = m[1]!;
  return e;
};

// The keys in the order RMAuditLogger writes them (docs/log-formats.md section 8), each once.
const AUDIT = new RegExp(
  [
    String.raw`USER=([^\t\r\n]*)`,
    String.raw`(?:\tIP=[^\t\r\n]*)?`,
    String.raw`\tOPERATION=([^\t\r\n]*)`,
    String.raw`\tTARGET=[^\t\r\n]*`,
    String.raw`\tRESULT=([^\t\r\n]*)`,
    String.raw`(?:\tAPPID=([^\t\r\n]*))?`,
    String.raw`(?:\tAPPATTEMPTID=([^\t\r\n]*))?`,
    String.raw`(?:\tCONTAINERID=([^\t\r\n]*))?`,
    String.raw`(?:\tRESOURCE=([^\t\r\n]*))?`,
    String.raw`(?:\tCALLERCONTEXT=[^\t\r\n]*)?`,
    String.raw`(?:\tCALLERSIGNATURE=[^\t\r\n]*)?`,
    String.raw`(?:\tQUEUENAME=([^\t\r\n]*))?`,
    String.raw`(?:\tNODELABEL=[^\t\r\n]*)?`,
  ].join(''),
  'y',
);

/**
 * RMAuditLogger, TAB-separated, the message whole: its keys in the order the RM writes them, each
 * once. tabField finds each key's value in the same field (values hold no TAB) and trims it as here.
 * Lines without USER or OPERATION, with a malformed container id, of another order or pasted with
 * spaces go to auditLogger.
 */
const auditLogger: InPlaceParser = (text, start, end, entry) => {
  const m = matchWhole(AUDIT, text, start, end);
  if (m === null) return null;
  const user = trimmed(m[1]!);
  const operation = trimmed(m[2]!);
  if (!user || !operation) return null;
  const e = event('audit', entry);
  const containerId = m[6] === undefined ? undefined : trimmed(m[6]);
  if (containerId) {
    if (!CONTAINER_ID.test(containerId)) return null;
    e.subject = containerId;
  } else {
    e.subject = m[5] !== undefined ? trimmed(m[5]) : m[4] !== undefined ? trimmed(m[4]) : null;
  }
  const resource = m[7] === undefined ? '' : trimmed(m[7]);
  if (resource) {
    // Not read here (past resourceAt's 64 characters, or above 32 bits): auditLogger decides.
    const r = AUDIT_RESOURCE.exec(resource);
    if (r !== null && !setResource(e, r[1]!, r[2]!, r[3]!)) return null;
  }
  e.detail = operation;
  e.user = user;
  e.queue = m[8] === undefined ? null : trimmed(m[8]);
  e.toState = trimmed(m[3]!);
  return e;
};

const CONTAINER_ID = new RegExp(`^${CONTAINER}$`);
const AUDIT_RESOURCE = /^(<+)memory:(\d+), vCores:(\d+)/;

const UNKNOWN_CONTAINER = new RegExp(
  String.raw`Container (${CONTAINER}) completed with event ([^ ,\r\n]+), but corresponding RMContainer doesn't exist\.`,
  'y',
);

/** AbstractYarnScheduler, 2.8+: the message whole, as yarnScheduler reads it. */
const yarnScheduler: InPlaceParser = (text, start, end, entry) => {
  const m = matchWhole(UNKNOWN_CONTAINER, text, start, end);
  if (m === null) return null;
  const e = event('container_unknown', entry);
  e.subject = m[1]!;
  e.detail = m[2]!;
  return e;
};

/** The fast path of each logger that has one. */
export const IN_PLACE_PARSERS: ReadonlyMap<string, InPlaceParser> = new Map<string, InPlaceParser>([
  ['RMContainerImpl', rmContainer],
  ['RMAppImpl', rmApp],
  ['RMAppAttemptImpl', rmAppAttempt],
  ['SchedulerNode', schedulerNode],
  ['FiCaSchedulerNode', schedulerNode],
  ['FSSchedulerNode', schedulerNode],
  ['CapacityScheduler', scheduler],
  ['FairScheduler', scheduler],
  ['FifoScheduler', scheduler],
  ['FiCaSchedulerApp', schedulerApp],
  ['FSAppAttempt', schedulerApp],
  ['FSSchedulerApp', schedulerApp],
  ['LeafQueue', leafQueue(true)],
  ['AbstractLeafQueue', leafQueue(false)],
  ['AppSchedulingInfo', appSchedulingInfo],
  ['AbstractYarnScheduler', yarnScheduler],
  ['RMAuditLogger', auditLogger],
]);
