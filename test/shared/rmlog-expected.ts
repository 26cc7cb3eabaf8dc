// Hand-checked facts about the real YARN ResourceManager logs in ../shared/traces/rmlogs, for testing
// the rmlog ingester against numbers that did not come from it. They were worked out with
// grep/awk/sed/wc/date only, without looking at src/. Each number has a comment with the command that
// gave it. Where a second way of counting exists it is given after "x-check:", and any disagreement
// between the two is explained.
//
// How to read the commands:
//   cd /work/shared/traces/rmlogs; F=<the entry's `path`>
//   TS='^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2},[0-9]{3} '   # start of a log4j %d{ISO8601} entry
//   TRANS = grep 'Container Transitioned from' $F | awk '{print $9"->"$11}' | sort | uniq -c
//   LAST  = grep 'Container Transitioned from' $F | awk '{last[$5]=$11} END{for (c in last) print last[c]}' | sort | uniq -c
//           (the final RMContainerImpl state of each container)
//   BACK  = grep -nE "$TS" $F | awk -F: '{ln=$1; ts=substr($0,length(ln)+2,23); if (prev!="" && ts<prev) print ln, ts, prev; prev=ts}'
//   CONT  = grep -vE "$TS" $F | awk '{ if ($0 ~ /^STARTUP_MSG|^SHUTDOWN_MSG|^\/\*\*\*|^\*\*\*\*/) k="banner";
//             else if ($0 ~ /^\tat |^\t\.\.\. [0-9]+ more|^Caused by:|^[a-z]+(\.[a-zA-Z0-9_$]+)+(Exception|Error)/) k="stack";
//             else if ($0 ~ / = |^, |^labels=/) k="schedulerConfig"; else if ($0 == "") k="blank"; else k="other";
//             c[k]++ } END{for (k in c) print k, c[k]}'
//   LONG  = awk '{ if (length($0)>m) {m=length($0); n=NR} } END{print m, n}' $F
//   LEVEL = grep -cE '^[0-9-]{10} [0-9:,]{12} (WARN|ERROR|FATAL) ' $F    (one level at a time)
//   SUMMARY = grep -o 'ApplicationSummary: .*' $F | sed -e 's/^ApplicationSummary: //' -e 's/"$//' -e 's/\\,/\x01/g' -e 's/\\=/\x02/g' |
//             awk -F, '{ delete v; for (i=1;i<=NF;i++) { k=$i; sub(/=.*/,"",k); val=substr($i,length(k)+2);
//             gsub(/\x01/,",",val); gsub(/\x02/,"=",val); v[k]=val }
//             print v["appId"], v["name"], v["user"], v["queue"], v["state"], v["finalStatus"], v["startTime"], v["finishTime"] }'
//             (splits on unescaped commas and unescapes `\,` and `\=`; memorySeconds/vcoreSeconds read the same way)
//   PERAPP = awk "$PERAPP" $F | sort, with PERAPP set to this program (one output line per app with a
//            MasterContainer line, plus one GRP line per group of task containers with the same size and priority):
//     function app(c,  s,a){ s=c; sub(/^container_(e[0-9]+_)?/,"",s); split(s,a,"_"); return "application_" a[1] "_" a[2] }
//     /Container Transitioned from/ { c=$5; from=$9; to=$11; A=app(c);
//       if (from=="NEW" && to=="ALLOCATED") alloc[A]++; if (to=="RUNNING") run[c]=1;
//       if (from=="ACQUIRED" && to=="RELEASED") relun[A]++; last[c]=to }
//     /MasterContainer: Container: \[ContainerId: / { match($0,/ContainerId: [^,]+/); c=substr($0,RSTART+13,RLENGTH-13); am[c]=1;
//       A=app(c); amid[A]=c; match($0,/NodeId: [^,]+/); amnode[A]=substr($0,RSTART+8,RLENGTH-8);
//       match($0,/Resource: <memory:[0-9]+, vCores:[0-9]+>/); r=substr($0,RSTART+18,RLENGTH-19); split(r,rr,", vCores:"); ammem[A]=rr[1]; amvc[A]=rr[2] }
//     /Assigned container .* of capacity/ { for(i=1;i<=NF;i++) if($i=="container" && $(i-1)=="Assigned") c=$(i+1);
//       match($0,/capacity <memory:[0-9]+, vCores:[0-9]+>/); r=substr($0,RSTART+17,RLENGTH-18); split(r,rr,", vCores:"); szm[c]=rr[1]; szv[c]=rr[2] }
//     /assignedContainer .*ContainerId: .*Priority: / { match($0,/ContainerId: [^,]+/); c=substr($0,RSTART+13,RLENGTH-13);
//       match($0,/Priority: [0-9]+/); pr[c]=substr($0,RSTART+10,RLENGTH-10) }
//     END { for (c in last) { A=app(c); if (!(c in am)) { if (c in run) trun[A]++;
//             k=A SUBSEP szm[c] SUBSEP szv[c] SUBSEP ((c in pr)? pr[c] : "null"); grp[k]++ } }
//       for (A in amid) printf "APP %s alloc=%d amId=%s amNode=%s amMem=%s amVc=%s taskRun=%d relUnused=%d\n", A, alloc[A], amid[A], amnode[A], ammem[A], amvc[A], trun[A], relun[A]
//       for (k in grp) { split(k, kk, SUBSEP); printf "GRP %s mem=%s vc=%s prio=%s count=%d\n", kk[1], kk[2], kk[3], kk[4], grp[k] } }
//   The AM container is the one in the app's `RMAppAttemptImpl: Storing attempt: ... MasterContainer:` line. It is
//   NOT always container _000001 (see the FairScheduler log). "Task containers" are all the app's other containers.

import { join } from 'node:path';
import { SHARED_DIR } from '../helpers/shared.js';

/** Folder holding the logs; `RmLogFacts.path` is relative to it. */
export const RMLOGS_DIR = join(SHARED_DIR, 'traces', 'rmlogs');

/** A YARN Resource as printed `<memory:M, vCores:V>`. */
export interface ResourceSize {
  readonly memoryMb: number;
  readonly vCores: number;
}

export interface NodeFacts {
  /** `host:port` as in `assigned nodeId <host:port>`. */
  readonly nodeId: string;
  readonly httpPort: number;
  readonly capability: ResourceSize;
  /** Timestamp of the `ResourceTrackerService: NodeManager from node ... registered` line, as written. */
  readonly registeredAt: string;
  /** Timestamp of the scheduler's `Removed node <nodeId>` line, or null when there is none. */
  readonly removedAt: string | null;
  /** The RMNodeImpl state the node went to just before `Removed node`, or null. */
  readonly removedBecause: 'UNHEALTHY' | 'SHUTDOWN' | null;
  /** `Assigned container ... on host <nodeId>` lines, i.e. containers allocated on this node. */
  readonly containersAssigned: number;
}

export interface NodesFacts {
  /** `registered with capability` lines. */
  readonly registrationLines: number;
  readonly distinctNodeIds: number;
  readonly removedNodeIds: readonly string[];
  /** Node ids that appear only inside other lines (e.g. a Container's NodeId) and never register. */
  readonly mentionedOnlyNodeIds: readonly string[];
  readonly nodes: readonly NodeFacts[];
}

/** Task containers of one app that share a size and a request priority. */
export interface TaskContainerGroup {
  readonly size: ResourceSize;
  /** MapReduce priorities: 20 map, 10 reduce, 5 fast-fail map re-run. null when no INFO line prints it (2.8.x). */
  readonly priority: number | null;
  readonly count: number;
}

/** One `RMAppManager$ApplicationSummary` line, values unescaped. */
export interface AppSummaryFacts {
  readonly name: string;
  readonly user: string;
  /** Exactly as written in the summary (FairScheduler writes `root.alpha`, CapacityScheduler the leaf name). */
  readonly queue: string;
  readonly state: string;
  readonly finalStatus: string;
  readonly startTimeMs: number;
  readonly finishTimeMs: number;
  /** MB-seconds; null in 2.6 summaries, which do not have the field. */
  readonly memoryMbSeconds: number | null;
  readonly vcoreSeconds: number | null;
}

export interface AppFacts {
  readonly appId: string;
  /** Timestamp of the `<appId> State change from NEW to NEW_SAVING` line, as written. */
  readonly submittedAt: string;
  /** Queue named in `Accepted application ... in queue: <q>` (FairScheduler prints the short name). */
  readonly acceptedQueue: string;
  /** Last RMAppImpl state reached in this log. */
  readonly lastAppState: string;
  readonly attempts: number;
  readonly summary: AppSummaryFacts | null;
  /** All containers of the app (AM included), from `NEW to ALLOCATED` (or audit lines where there are none). */
  readonly containersAllocated: number;
  readonly amContainerId: string;
  readonly amContainerNodeId: string;
  readonly amContainerSize: ResourceSize;
  /** Non-AM containers that reached RUNNING; null when the log has no RMContainerImpl lines. */
  readonly taskContainersRunning: number | null;
  /** Non-AM containers that went ACQUIRED to RELEASED (handed back by the AM unused). */
  readonly taskContainersReleasedUnused: number | null;
  /** Every allocated non-AM container, grouped; null when no line prints their size. */
  readonly taskContainers: readonly TaskContainerGroup[] | null;
}

export interface AppsFacts {
  /** Distinct app ids with a `State change from NEW to NEW_SAVING` line. */
  readonly submitted: number;
  /** App ids that appear in the log but were not submitted to this RM (leftovers, other apps' attempts). */
  readonly mentionedOnlyIds: readonly string[];
  /** Ids handed out by `Allocated new applicationId: <n>` but never submitted (the full id never appears). */
  readonly allocatedButNeverSubmittedIds: readonly string[];
  readonly withSummary: number;
  /** Apps whose RMAppImpl reached FINISHED / FAILED / KILLED. */
  readonly reachedFinished: number;
  readonly reachedFailed: number;
  readonly reachedKilled: number;
  readonly apps: readonly AppFacts[];
}

export interface ContainersFacts {
  /** `Container Transitioned from NEW to ALLOCATED`; null when the log has no RMContainerImpl lines. */
  readonly allocated: number | null;
  readonly reachedRunning: number | null;
  /** Containers whose final state is COMPLETED / RELEASED / KILLED / EXPIRED. */
  readonly completed: number | null;
  readonly released: number | null;
  readonly killed: number | null;
  readonly expired: number | null;
  /** Allocated containers with no end state by the end of the file. */
  readonly notEndedAtEof: number | null;
  /** `OPERATION=AM Allocated Container` / `OPERATION=AM Released Container` audit lines. */
  readonly auditAllocated: number;
  readonly auditReleased: number;
  readonly perNode: readonly { readonly nodeId: string; readonly containers: number }[];
}

/** How many lines of each kind the file has. */
export interface LineKindCounts {
  readonly rmContainerTransitions: number;
  readonly rmAppStateChanges: number;
  readonly rmAppAttemptStateChanges: number;
  readonly auditLines: number;
  readonly applicationSummaries: number;
  /** `SchedulerNode: Assigned container` / `Released container`. */
  readonly assignedContainer: number;
  readonly releasedContainer: number;
  /** 2.6/2.7 `LeafQueue: assignedContainer` (full Container), 2.8 `AbstractContainerAllocator: assignedContainer`. */
  readonly leafQueueAssignedContainer: number;
  readonly containerAllocatorAssignedContainer: number;
  readonly parentQueueAssignedContainer: number;
  readonly leafQueueCompletedContainer: number;
  readonly parentQueueCompletedContainer: number;
  /** `FiCaSchedulerApp`/`FSAppAttempt: Completed container:`. */
  readonly completedContainer: number;
  /** `Application attempt <att> released container <c> on node: ...`. */
  readonly attemptReleasedContainer: number;
  readonly nodeTransitions: number;
  /** `CapacityScheduler: Null container completed...` (container updates the RM no longer tracks). */
  readonly nullContainerCompleted: number;
  /** `Container <c> completed with event FINISHED, but corresponding RMContainer doesn't exist.` */
  readonly completedWithoutRmContainer: number;
}

export interface ContinuationKinds {
  /** STARTUP_MSG / SHUTDOWN_MSG banner lines (including the huge classpath line). */
  readonly banner: number;
  /** Java stack trace lines (`\tat `, `Caused by:`, `... n more`, exception headline). */
  readonly stackTrace: number;
  /** `LeafQueue: Initializing` / CapacitySchedulerConfiguration continuation lines (`key = value`). */
  readonly schedulerConfig: number;
  readonly blank: number;
  readonly other: number;
}

export interface BackwardsStep {
  readonly lineNumber: number;
  readonly timestamp: string;
  readonly previousTimestamp: string;
}

export interface QuirkFacts {
  /** Lines that do not start with an entry timestamp (continuations of the entry above). */
  readonly continuationLines: number;
  readonly continuationKinds: ContinuationKinds;
  readonly warnLines: number;
  readonly errorLines: number;
  readonly fatalLines: number;
  readonly linesWithTabs: number;
  /** Timestamped lines with a TAB: exactly the RMAuditLogger lines (TAB-separated KEY=value). */
  readonly timestampedLinesWithTabs: number;
  readonly longestLineChars: number;
  readonly longestLineNumber: number;
  readonly timestampsGoingBackwards: readonly BackwardsStep[];
  /** Log clock minus UTC, from summary startTime vs the NEW_SAVING line; null when there is no summary. */
  readonly logClockUtcOffsetHours: number | null;
  readonly notes: readonly string[];
}

/** A row of the ground-truth table in WORKLOAD.md (times as given there, HH:MM:SS.mmm UTC). */
export interface GroundTruthRow {
  readonly appId: string;
  readonly tag: string;
  readonly queue: string;
  readonly rmStartTime: string;
  readonly rmFinishTime: string;
  readonly stateFinalStatus: string;
  readonly maps: number;
  readonly reduces: number;
  readonly memoryMbSeconds: number;
  /** True when the row equals the rm.log ApplicationSummary (queue, times after epoch-ms to UTC, state, memorySeconds). */
  readonly agreesWithSummary: boolean;
}

export interface RmLogFacts {
  /** Relative to RMLOGS_DIR. */
  readonly path: string;
  readonly layout: 'log4j-iso8601' | 'windows-eventlog-wrapped-console';
  readonly lines: number;
  readonly bytes: number;
  /** First and last entry timestamp in file order, as written (the last is not always the latest). */
  readonly firstTimestamp: string;
  readonly lastTimestamp: string;
  readonly hadoopVersion: string | null;
  readonly scheduler: 'CapacityScheduler' | 'FairScheduler';
  readonly schedulerEvidence: string;
  /** `STARTUP_MSG: Starting ResourceManager` blocks. */
  readonly rmStarts: number;
  readonly rmStartTimestamps: readonly string[];
  /** `SHUTDOWN_MSG: Shutting down ResourceManager` blocks. */
  readonly rmShutdowns: number;
  readonly nodes: NodesFacts;
  readonly apps: AppsFacts;
  readonly containers: ContainersFacts;
  readonly lineKinds: LineKindCounts;
  readonly quirks: QuirkFacts;
  readonly groundTruth: readonly GroundTruthRow[] | null;
}

const MB1024: ResourceSize = { memoryMb: 1024, vCores: 1 };
const MB2048: ResourceSize = { memoryMb: 2048, vCores: 1 };
const MB8192x8: ResourceSize = { memoryMb: 8192, vCores: 8 };

export const RM_LOG_FACTS: readonly RmLogFacts[] = [
  // ---------------------------------------------------------------------------------------------
  {
    path: 'apache-resourceestimator-rmlog-excerpt/rmLog.txt',
    // Every line is `<seq>:e,MM/dd/yyyy HH:mm:ss,yarn resourcemanager,DefaultTag,Pid=".." Tid=".." TS=".." String1="<log4j line>"`,
    // the inner line in the console layout `yy/MM/dd HH:mm:ss LEVEL pkg.Class: msg`. The last line has no `<seq>:`.
    layout: 'windows-eventlog-wrapped-console',
    lines: 30, // wc -l < $F
    bytes: 9087, // wc -c < $F
    // Inner log4j timestamps: grep -o 'String1="[0-9/]* [0-9:]*' $F | sed -n '1p;$p'
    // (the wrapper's own timestamps are `06/21/2017 16:10:13` and `06/20/2017 22:30:21`:
    //  grep -oE '^([0-9]+:)?e,[0-9/]+ [0-9:]+' $F | sed -n '1p;$p')
    firstTimestamp: '17/06/21 16:10:13',
    lastTimestamp: '17/06/20 22:30:21',
    hadoopVersion: null, // grep -c STARTUP_MSG $F -> 0 (SOURCE.md dates it to 2.7.x from the summary's field set)
    scheduler: 'CapacityScheduler',
    schedulerEvidence: 'logger names capacity.CapacityScheduler / capacity.LeafQueue / capacity.ParentQueue (grep -o "INFO [a-z]*\\.[A-Za-z$]*:" $F | sort | uniq -c)',
    rmStarts: 0, // grep -c 'STARTUP_MSG: Starting ResourceManager' $F
    rmStartTimestamps: [],
    rmShutdowns: 0, // grep -c 'SHUTDOWN_MSG: Shutting down ResourceManager' $F
    nodes: {
      registrationLines: 0, // grep -c 'registered with capability' $F
      distinctNodeIds: 0,
      removedNodeIds: [], // grep -c 'Removed node' $F -> 0
      mentionedOnlyNodeIds: ['by2pr08mb1799.namprd08.prod.outlook.com:10131'], // grep -oE 'NodeId: [^,]+' $F
      nodes: [],
    },
    apps: {
      submitted: 1, // grep 'State change from NEW to NEW_SAVING' $F | grep -oE 'application_[0-9]+_[0-9]+' | sort -u | wc -l
      // Line 30 is `Application Attempt appattempt_1497832133857_0194_000001 is done. finalState=FAILED`,
      // an attempt of another app, from the evening before: grep -oE 'appattempt_[0-9]+_[0-9]+_[0-9]+' $F | sort -u
      mentionedOnlyIds: ['application_1497832133857_0194'],
      allocatedButNeverSubmittedIds: [],
      withSummary: 1, // grep -c 'ApplicationSummary: appId=' $F
      // grep -oE 'RMAppImpl: application_[0-9_]+ State change from [A-Z_]+ to (FINISHED|FAILED|KILLED)' $F | awk '{print $NF}' | sort | uniq -c
      // x-check: one summary with state=FINISHED, and the audit line `OPERATION=Application Finished - Succeeded`
      reachedFinished: 1,
      reachedFailed: 0,
      reachedKilled: 0,
      apps: [
        {
          appId: 'application_1497832133857_0330',
          submittedAt: '17/06/21 16:10:13', // grep 'State change from NEW to NEW_SAVING' $F | grep -o 'String1="[0-9/]* [0-9:]*'
          acceptedQueue: 'PROD', // grep -o 'Accepted application .*' $F
          lastAppState: 'FINISHED', // grep -o 'State change from [A-Z_]* to [A-Z_]*' $F | tail -1
          attempts: 1, // grep -oE 'appattempt_1497832133857_0330_[0-9]+' $F | sort -u | wc -l
          // SUMMARY. NB the summary reads `user=hadoop, queue=PROD` (a space after the comma, so the key is
          // ` queue`); the awk above finds it under v[" queue"].
          summary: {
            name: 'FraudDetection-1',
            user: 'hadoop',
            queue: 'PROD',
            state: 'FINISHED',
            finalStatus: 'SUCCEEDED',
            startTimeMs: 1498061413073, // = 2017-06-21 16:10:13.073 UTC (date -u -d @1498061413.073), the submit line's time
            finishTimeMs: 1498061905698, // = 16:18:25.698 UTC, the RUNNING to FINAL_SAVING line's time
            memoryMbSeconds: 1330655,
            vcoreSeconds: 704,
          },
          // No RMContainerImpl lines: counted from audit lines instead.
          // grep 'OPERATION=AM Allocated Container' $F | grep -c 'APPID=application_1497832133857_0330'
          // x-check: grep -oE 'container_[e0-9_]+' $F | sort -u | wc -l -> 2
          containersAllocated: 2,
          // The MasterContainer line: grep -o 'MasterContainer: .*' $F
          amContainerId: 'container_e26_1497832133857_0330_01_000001',
          amContainerNodeId: 'by2pr08mb1799.namprd08.prod.outlook.com:10131',
          amContainerSize: { memoryMb: 1800, vCores: 1 }, // Resource: <memory:1800, vCores:1> (not a multiple of 1024)
          taskContainersRunning: null, // no RMContainerImpl lines: grep -c 'Container Transitioned' $F -> 0
          taskContainersReleasedUnused: null,
          taskContainers: null, // container _000002 is only in audit lines, which print no size in 2.7
        },
      ],
    },
    containers: {
      allocated: null, // grep -c 'NEW to ALLOCATED' $F -> 0: the excerpt was filtered and has no RMContainerImpl lines
      reachedRunning: null,
      completed: null,
      released: null,
      killed: null,
      expired: null,
      notEndedAtEof: 0, // both allocated containers have an `AM Released Container` audit line
      auditAllocated: 2, // grep -c 'OPERATION=AM Allocated Container' $F
      auditReleased: 2, // grep -c 'OPERATION=AM Released Container' $F
      perNode: [],
    },
    lineKinds: {
      rmContainerTransitions: 0, // grep -c 'Container Transitioned from' $F
      rmAppStateChanges: 7, // grep -cE 'RMAppImpl: application_[0-9]+_[0-9]+ State change from' $F
      rmAppAttemptStateChanges: 0, // grep -cE 'RMAppAttemptImpl: appattempt_[0-9_]+ State change from' $F
      auditLines: 7, // grep -c 'RMAuditLogger: ' $F
      applicationSummaries: 1, // grep -c 'ApplicationSummary: appId=' $F
      assignedContainer: 0, // grep -c 'Assigned container ' $F
      releasedContainer: 0, // grep -c 'Released container ' $F
      leafQueueAssignedContainer: 0, // grep -c 'LeafQueue: assignedContainer' $F
      containerAllocatorAssignedContainer: 0, // grep -c 'AbstractContainerAllocator: assignedContainer' $F
      parentQueueAssignedContainer: 0, // grep -c 'ParentQueue: assignedContainer' $F
      leafQueueCompletedContainer: 0, // grep -c 'LeafQueue: completedContainer' $F
      parentQueueCompletedContainer: 0, // grep -c 'ParentQueue: completedContainer' $F
      completedContainer: 0, // grep -c 'Completed container: ' $F
      attemptReleasedContainer: 0, // grep -cE 'Application attempt appattempt_[0-9_]+ released container' $F
      nodeTransitions: 0, // grep -c 'Node Transitioned from' $F
      nullContainerCompleted: 0, // grep -c 'Null container completed' $F
      completedWithoutRmContainer: 0, // grep -c "corresponding RMContainer doesn't exist" $F
    },
    quirks: {
      continuationLines: 0, // grep -cvE '^([0-9]+:)?e,[0-9]{2}/[0-9]{2}/[0-9]{4} [0-9:]{8},' $F
      continuationKinds: { banner: 0, stackTrace: 0, schedulerConfig: 0, blank: 0, other: 0 },
      warnLines: 0, // grep -cE 'String1="[0-9/]{8} [0-9:]{8} WARN ' $F (all 30 are INFO)
      errorLines: 0, // same with ERROR
      fatalLines: 0, // same with FATAL
      linesWithTabs: 0, // grep -c $'\t' $F: the audit fields are separated by one or two SPACES here, not TABs
      timestampedLinesWithTabs: 0,
      longestLineChars: 671, // LONG
      longestLineNumber: 29, // LONG (the ApplicationSummary)
      // awk -F'String1="' '{ts=substr($2,1,17); if (prev!="" && ts<prev) print NR, ts, prev; prev=ts}' $F
      timestampsGoingBackwards: [{ lineNumber: 30, timestamp: '17/06/20 22:30:21', previousTimestamp: '17/06/21 16:18:35' }],
      logClockUtcOffsetHours: 0, // summary startTime 16:10:13.073 UTC vs NEW_SAVING line 17/06/21 16:10:13
      notes: [
        'Only file whose entries are wrapped: take the log4j line from String1="...", drop the trailing quote.',
        'Console layout: two-digit year, second resolution, %c{2} logger names (rmapp.RMAppImpl).',
        'Wrapper sequence numbers have gaps (252823, 252825, ...); line 30 has no `<seq>:` prefix and is 18 h earlier than line 29.',
        'Audit KEY=value pairs separated by spaces (two, sometimes one), not TABs.',
        'ApplicationSummary has `, queue=PROD` with a space before the key.',
        'Container ids carry an epoch: container_e26_1497832133857_0330_01_000001.',
        'AM container is 1800 MB (not normalised to 1024 MB steps).',
      ],
    },
    groundTruth: null,
  },

  // ---------------------------------------------------------------------------------------------
  {
    path: 'goaxe-hadoop273-cs-3nodes/yarn-root-resourcemanager-tfs01.log',
    layout: 'log4j-iso8601',
    lines: 712, // wc -l < $F
    bytes: 186969, // wc -c < $F
    firstTimestamp: '2017-01-03 11:00:39,471', // grep -E "$TS" $F | head -1 | cut -c1-23
    lastTimestamp: '2017-01-03 11:40:58,170', // grep -E "$TS" $F | tail -1 | cut -c1-23
    hadoopVersion: '2.7.3', // grep 'STARTUP_MSG:   version' $F
    scheduler: 'CapacityScheduler',
    schedulerEvidence: 'Using Scheduler: org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler (line 21)',
    rmStarts: 1, // grep -c 'STARTUP_MSG: Starting ResourceManager' $F
    rmStartTimestamps: ['2017-01-03 11:00:39,471'], // grep -E 'ResourceManager: STARTUP_MSG: $' $F | cut -c1-23
    rmShutdowns: 0, // grep -c 'SHUTDOWN_MSG: Shutting down ResourceManager' $F (the file ends with the RM still up)
    nodes: {
      registrationLines: 3, // grep -c 'registered with capability' $F; x-check: grep -c 'Added node' $F -> 3
      distinctNodeIds: 3, // grep -oE 'assigned nodeId [^ ,]+' $F | sort -u | wc -l
      // grep 'Removed node' $F; it follows `tfs02:55092 Node Transitioned from RUNNING to UNHEALTHY` (line 137),
      // which comes BEFORE the scheduler's `Added node tfs02:55092` (line 138); `Removed node` is line 140.
      removedNodeIds: ['tfs02:55092'],
      mentionedOnlyNodeIds: [],
      // grep 'registered with capability' $F | sed -E 's/^([0-9-]+ [0-9:,]+) .*httpPort: ([0-9]+)\) registered with capability: <memory:([0-9]+), vCores:([0-9]+)>, assigned nodeId ([^ ,]+).*/\1 http=\2 mem=\3 vc=\4 \5/'
      // containersAssigned: grep -oE 'Assigned container [^ ]+ of capacity <[^>]+> on host [^,]+' $F | awk '{print $NF}' | sort | uniq -c
      // x-check: grep -oE 'LeafQueue: assignedContainer .*NodeId: [^,]+' $F | awk '{print $NF}' | sort | uniq -c -> same 12/11,
      // and `Released container ... on host` per node -> same 12/11
      nodes: [
        { nodeId: 'tfs02:55092', httpPort: 8042, capability: MB8192x8, registeredAt: '2017-01-03 11:01:02,959', removedAt: '2017-01-03 11:01:02,980', removedBecause: 'UNHEALTHY', containersAssigned: 0 },
        { nodeId: 'tfs04:38559', httpPort: 8042, capability: MB8192x8, registeredAt: '2017-01-03 11:01:02,961', removedAt: null, removedBecause: null, containersAssigned: 11 },
        { nodeId: 'tfs03:45427', httpPort: 8042, capability: MB8192x8, registeredAt: '2017-01-03 11:01:03,222', removedAt: null, removedBecause: null, containersAssigned: 12 },
      ],
    },
    apps: {
      submitted: 3, // grep 'State change from NEW to NEW_SAVING' $F | grep -oE 'application_[0-9]+_[0-9]+' | sort -u | wc -l
      // Leftovers of an earlier RM (cluster timestamp 1483411792436) in 5 WARN `RMNodeImpl: Cannot get RMApp by appId=...`
      // lines when tfs02/tfs04/tfs03 register: grep -oE 'application_[0-9]+_[0-9]+' $F | sort | uniq -c
      mentionedOnlyIds: ['application_1483411792436_0001', 'application_1483411792436_0002', 'application_1483411792436_0003'],
      allocatedButNeverSubmittedIds: [], // grep 'Allocated new applicationId' $F -> 1, 2, 3, all submitted
      withSummary: 3, // grep -c 'ApplicationSummary: appId=' $F
      // grep -oE 'RMAppImpl: application_[0-9_]+ State change from [A-Z_]+ to (FINISHED|FAILED|KILLED)' $F | awk '{print $NF}' | sort | uniq -c
      // x-check: 3 summaries, all state=FINISHED
      reachedFinished: 3,
      reachedFailed: 0,
      reachedKilled: 0,
      // Per app: SUMMARY for the summary; PERAPP for containers (x-check of containersAllocated:
      // grep 'OPERATION=AM Allocated Container' $F | grep -oE 'APPID=[^[:space:]]+' | sort | uniq -c -> 5/4/14, and
      // grep -oE 'Assigned container container_[0-9]+_[0-9]+' $F | sort | uniq -c -> 5/4/14).
      // Priorities come from `LeafQueue: assignedContainer ... Priority: n`.
      apps: [
        {
          appId: 'application_1483412440498_0001',
          submittedAt: '2017-01-03 11:01:24,949', // grep -E 'RMAppImpl: <id> State change from NEW to NEW_SAVING' $F | cut -c1-23
          acceptedQueue: 'default', // grep -o 'Accepted application .*' $F
          lastAppState: 'FINISHED',
          attempts: 1, // grep -oE 'appattempt_[0-9]+_[0-9]+_[0-9]+' $F | sort -u
          summary: {
            name: 'select count(1) from test(Stage-1)',
            user: 'root',
            queue: 'default',
            state: 'FINISHED',
            finalStatus: 'SUCCEEDED',
            startTimeMs: 1483412484939, // = 03:01:24.939 UTC; the NEW_SAVING line says 11:01:24,949 (clock is UTC+8)
            finishTimeMs: 1483412511639,
            memoryMbSeconds: 94892,
            vcoreSeconds: 58,
          },
          containersAllocated: 5, // PERAPP alloc
          amContainerId: 'container_1483412440498_0001_01_000001',
          amContainerNodeId: 'tfs04:38559',
          amContainerSize: MB2048,
          taskContainersRunning: 3, // PERAPP taskRun
          taskContainersReleasedUnused: 1, // PERAPP relUnused (container _000004, priority 20)
          taskContainers: [
            { size: MB1024, priority: 20, count: 3 }, // PERAPP GRP
            { size: MB1024, priority: 10, count: 1 },
          ],
        },
        {
          appId: 'application_1483412440498_0002',
          submittedAt: '2017-01-03 11:36:52,877',
          acceptedQueue: 'default',
          lastAppState: 'FINISHED',
          attempts: 1,
          summary: {
            name: 'select count(*) from name_city(Stage-1)',
            user: 'root',
            queue: 'default',
            state: 'FINISHED',
            finalStatus: 'SUCCEEDED',
            startTimeMs: 1483414612877,
            finishTimeMs: 1483414637607,
            memoryMbSeconds: 91277,
            vcoreSeconds: 56,
          },
          containersAllocated: 4, // PERAPP alloc
          amContainerId: 'container_1483412440498_0002_01_000001',
          amContainerNodeId: 'tfs03:45427',
          amContainerSize: MB2048,
          taskContainersRunning: 3, // PERAPP taskRun
          taskContainersReleasedUnused: 0, // PERAPP relUnused
          taskContainers: [
            { size: MB1024, priority: 20, count: 2 }, // PERAPP GRP
            { size: MB1024, priority: 10, count: 1 },
          ],
        },
        {
          appId: 'application_1483412440498_0003',
          submittedAt: '2017-01-03 11:39:31,827',
          acceptedQueue: 'default',
          lastAppState: 'FINISHED',
          attempts: 1,
          summary: {
            // written `name=select test.* from test join n...test.id\=100(Stage-1)` (escaped `=`)
            name: 'select test.* from test join n...test.id=100(Stage-1)',
            user: 'root',
            queue: 'default',
            state: 'FINISHED',
            finalStatus: 'SUCCEEDED',
            startTimeMs: 1483414771826,
            finishTimeMs: 1483414849663,
            memoryMbSeconds: 580513,
            vcoreSeconds: 474,
          },
          containersAllocated: 14, // PERAPP alloc
          amContainerId: 'container_1483412440498_0003_01_000001',
          amContainerNodeId: 'tfs03:45427',
          amContainerSize: MB2048,
          taskContainersRunning: 10, // PERAPP taskRun
          taskContainersReleasedUnused: 3, // PERAPP relUnused (_000006 p20, _000012 p10, _000013 p10)
          taskContainers: [
            { size: MB1024, priority: 20, count: 7 }, // PERAPP GRP
            { size: MB1024, priority: 10, count: 6 },
          ],
        },
      ],
    },
    containers: {
      // TRANS: 23 NEW->ALLOCATED, 23 ALLOCATED->ACQUIRED, 19 ACQUIRED->RUNNING, 19 RUNNING->COMPLETED, 4 ACQUIRED->RELEASED
      allocated: 23, // x-check: grep -c 'Assigned container ' $F -> 23; grep -c 'LeafQueue: assignedContainer' $F -> 23
      reachedRunning: 19, // TRANS ACQUIRED->RUNNING
      completed: 19, // LAST; x-check: grep -o 'Completed container: .*' $F | awk '{print $5, $6}' | sort | uniq -c -> 19 COMPLETED, 4 RELEASED
      released: 4, // LAST; x-check: `released container ... with event: RELEASED` -> 4
      killed: 0, // LAST
      expired: 0, // LAST
      notEndedAtEof: 0, // LAST (23 containers, every one COMPLETED or RELEASED)
      auditAllocated: 23, // grep -c 'OPERATION=AM Allocated Container' $F
      auditReleased: 23, // grep -c 'OPERATION=AM Released Container' $F
      perNode: [
        { nodeId: 'tfs03:45427', containers: 12 }, // see nodes.nodes
        { nodeId: 'tfs04:38559', containers: 11 },
      ],
    },
    lineKinds: {
      rmContainerTransitions: 88, // grep -c 'Container Transitioned from' $F (= 23+23+19+19+4)
      rmAppStateChanges: 21, // grep -cE 'RMAppImpl: application_[0-9]+_[0-9]+ State change from' $F
      rmAppAttemptStateChanges: 27, // grep -cE 'RMAppAttemptImpl: appattempt_[0-9_]+ State change from' $F
      auditLines: 55, // grep -c 'RMAuditLogger: ' $F
      applicationSummaries: 3, // grep -c 'ApplicationSummary: appId=' $F
      assignedContainer: 23, // grep -c 'Assigned container ' $F
      releasedContainer: 23, // grep -c 'Released container ' $F
      leafQueueAssignedContainer: 23, // grep -c 'LeafQueue: assignedContainer' $F
      containerAllocatorAssignedContainer: 0, // grep -c 'AbstractContainerAllocator: assignedContainer' $F
      parentQueueAssignedContainer: 23, // grep -c 'ParentQueue: assignedContainer' $F
      leafQueueCompletedContainer: 23, // grep -c 'LeafQueue: completedContainer' $F
      parentQueueCompletedContainer: 23, // grep -c 'ParentQueue: completedContainer' $F
      completedContainer: 23, // grep -c 'Completed container: ' $F
      attemptReleasedContainer: 23, // grep -cE 'Application attempt appattempt_[0-9_]+ released container' $F
      nodeTransitions: 4, // grep -c 'Node Transitioned from' $F
      nullContainerCompleted: 6, // grep -c 'Null container completed' $F
      completedWithoutRmContainer: 0, // grep -c "corresponding RMContainer doesn't exist" $F
    },
    quirks: {
      continuationLines: 32, // grep -cvE "$TS" $F
      continuationKinds: { banner: 9, stackTrace: 0, schedulerConfig: 22, blank: 1, other: 0 }, // CONT
      warnLines: 5, // LEVEL WARN (the 5 `Cannot get RMApp` lines)
      errorLines: 0, // LEVEL ERROR
      fatalLines: 0, // LEVEL FATAL
      linesWithTabs: 55, // grep -c $'\t' $F
      timestampedLinesWithTabs: 55, // grep -E "$TS" $F | grep -c $'\t' (= auditLines)
      longestLineChars: 15229, // LONG (STARTUP_MSG classpath)
      longestLineNumber: 7, // LONG
      timestampsGoingBackwards: [], // BACK prints nothing
      logClockUtcOffsetHours: 8, // NEW_SAVING line time minus summary startTime = 28,800,000..28,800,010 ms for all 3 apps
      notes: [
        'One node (tfs02) registers at 11:01:02,959, goes RUNNING to UNHEALTHY at ,974 (before the scheduler logs `Added node` at ,978) and is removed at ,980.',
        'App names contain spaces, parentheses, `*` and an escaped `\\=`.',
        '6 `Null container completed...` lines at the end of apps.',
        'The first continuation line is `, reservationsContinueLooking=true` (a LeafQueue toString wrapped onto a new line).',
      ],
    },
    groundTruth: null,
  },

  // ---------------------------------------------------------------------------------------------
  {
    path: 'hadoop285-realrun-cs-wordcount-pi/rm.log',
    layout: 'log4j-iso8601',
    lines: 452, // wc -l < $F (WORKLOAD.md says 452 too)
    bytes: 111819, // wc -c < $F
    firstTimestamp: '2026-11-22 00:57:29,696', // grep -E "$TS" $F | head -1 | cut -c1-23
    lastTimestamp: '2026-11-22 00:58:58,834', // grep -E "$TS" $F | tail -1 | cut -c1-23
    hadoopVersion: '2.8.5', // grep 'STARTUP_MSG:   version' $F
    scheduler: 'CapacityScheduler',
    schedulerEvidence: 'Using Scheduler: org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler',
    rmStarts: 1, // grep -c 'STARTUP_MSG: Starting ResourceManager' $F
    rmStartTimestamps: ['2026-11-22 00:57:29,696'], // grep -E 'ResourceManager: STARTUP_MSG: $' $F | cut -c1-23
    rmShutdowns: 1, // grep -c 'SHUTDOWN_MSG: Shutting down ResourceManager' $F (after `RECEIVED SIGNAL 15: SIGTERM`)
    nodes: {
      registrationLines: 2, // grep -c 'registered with capability' $F; x-check: grep -c 'Added node' $F -> 2
      distinctNodeIds: 2, // grep -oE 'assigned nodeId [^ ,]+' $F | sort -u | wc -l
      // grep 'Removed node' $F: both at shutdown, after `Deactivating Node ... as it is now SHUTDOWN`
      removedNodeIds: ['localhost:45455', 'localhost:45454'],
      mentionedOnlyNodeIds: [],
      // same commands as for goaxe; x-check of containersAssigned: `Released container ... on host` per node -> 8/7
      nodes: [
        { nodeId: 'localhost:45455', httpPort: 8043, capability: MB8192x8, registeredAt: '2026-11-22 00:57:43,093', removedAt: '2026-11-22 00:58:58,788', removedBecause: 'SHUTDOWN', containersAssigned: 7 },
        { nodeId: 'localhost:45454', httpPort: 8042, capability: MB8192x8, registeredAt: '2026-11-22 00:57:43,245', removedAt: '2026-11-22 00:58:58,793', removedBecause: 'SHUTDOWN', containersAssigned: 8 },
      ],
    },
    apps: {
      submitted: 2, // grep 'State change from NEW to NEW_SAVING' $F | grep -oE 'application_[0-9]+_[0-9]+' | sort -u | wc -l
      mentionedOnlyIds: [], // grep -oE 'application_[0-9]+_[0-9]+' $F | sort -u -> only the 2 submitted
      allocatedButNeverSubmittedIds: [],
      withSummary: 2, // grep -c 'ApplicationSummary: appId=' $F (0002's summary comes before 0001's)
      reachedFinished: 2, // `State change from FINISHING to FINISHED on event=ATTEMPT_FINISHED` x2; x-check: 2 summaries state=FINISHED
      reachedFailed: 0,
      reachedKilled: 0,
      // 2.8: no INFO line prints a task container's priority, so priority is null. Sizes from `Assigned container`.
      // x-check of containersAllocated: audit `AM Allocated Container` per APPID -> 8/7.
      // x-check of taskContainersRunning against jhist: grep -oE '"type":"(MAP|REDUCE)_ATTEMPT_STARTED"' <jhist> | wc -l -> 4 and 5.
      apps: [
        {
          appId: 'application_1795309050754_0001',
          submittedAt: '2026-11-22 00:57:54,470',
          acceptedQueue: 'default',
          lastAppState: 'FINISHED',
          attempts: 1,
          summary: {
            name: 'word count',
            user: 'root',
            queue: 'default',
            state: 'FINISHED',
            finalStatus: 'SUCCEEDED',
            startTimeMs: 1795309074448, // 00:57:54.448 UTC
            finishTimeMs: 1795309117605, // 00:58:37.605 UTC (= the RUNNING to FINAL_SAVING line, 00:58:37,605)
            memoryMbSeconds: 135046,
            vcoreSeconds: 128,
          },
          containersAllocated: 8, // PERAPP alloc
          amContainerId: 'container_1795309050754_0001_01_000001',
          amContainerNodeId: 'localhost:45455',
          amContainerSize: MB1024,
          taskContainersRunning: 4, // PERAPP taskRun (3 maps + 1 reduce)
          taskContainersReleasedUnused: 3, // PERAPP relUnused (_000005, _000006, _000008)
          taskContainers: [{ size: MB1024, priority: null, count: 7 }], // PERAPP GRP
        },
        {
          appId: 'application_1795309050754_0002',
          submittedAt: '2026-11-22 00:57:58,804',
          acceptedQueue: 'default',
          lastAppState: 'FINISHED',
          attempts: 1,
          summary: {
            name: 'QuasiMonteCarlo',
            user: 'root',
            queue: 'default',
            state: 'FINISHED',
            finalStatus: 'SUCCEEDED',
            startTimeMs: 1795309078802, // 00:57:58.802 UTC
            finishTimeMs: 1795309115253, // 00:58:35.253 UTC
            memoryMbSeconds: 126594,
            vcoreSeconds: 120,
          },
          containersAllocated: 7, // PERAPP alloc
          amContainerId: 'container_1795309050754_0002_01_000001',
          amContainerNodeId: 'localhost:45455',
          amContainerSize: MB1024,
          taskContainersRunning: 5, // PERAPP taskRun (4 maps + 1 reduce)
          taskContainersReleasedUnused: 1, // PERAPP relUnused (_000006)
          taskContainers: [{ size: MB1024, priority: null, count: 6 }], // PERAPP GRP
        },
      ],
    },
    containers: {
      // TRANS: 15 NEW->ALLOCATED, 15 ALLOCATED->ACQUIRED, 11 ACQUIRED->RUNNING, 11 RUNNING->COMPLETED, 4 ACQUIRED->RELEASED
      allocated: 15, // x-check: grep -c 'Assigned container ' $F -> 15; grep -c 'AbstractContainerAllocator: assignedContainer' $F -> 15
      reachedRunning: 11,
      completed: 11, // LAST
      released: 4, // LAST
      killed: 0,
      expired: 0,
      notEndedAtEof: 0, // LAST
      auditAllocated: 15, // grep -c 'OPERATION=AM Allocated Container' $F
      auditReleased: 15, // grep -c 'OPERATION=AM Released Container' $F
      perNode: [
        { nodeId: 'localhost:45454', containers: 8 },
        { nodeId: 'localhost:45455', containers: 7 },
      ],
    },
    lineKinds: {
      rmContainerTransitions: 56, // grep -c 'Container Transitioned from' $F (WORKLOAD.md: 56)
      rmAppStateChanges: 14, // (WORKLOAD.md: 14)
      rmAppAttemptStateChanges: 18, // (WORKLOAD.md: 18)
      auditLines: 37, // (WORKLOAD.md: 37)
      applicationSummaries: 2,
      assignedContainer: 15,
      releasedContainer: 15,
      leafQueueAssignedContainer: 0,
      containerAllocatorAssignedContainer: 15,
      parentQueueAssignedContainer: 15, // 15+15 = WORKLOAD.md's "assignedContainer (CS allocator/ParentQueue): 30"
      leafQueueCompletedContainer: 0, // not at INFO in 2.8
      parentQueueCompletedContainer: 0,
      completedContainer: 0, // CS in 2.8 has no `Completed container:` line
      attemptReleasedContainer: 0,
      nodeTransitions: 4,
      nullContainerCompleted: 0,
      completedWithoutRmContainer: 2, // grep -c "corresponding RMContainer doesn't exist" $F
    },
    quirks: {
      continuationLines: 34, // grep -cvE "$TS" $F
      continuationKinds: { banner: 13, stackTrace: 0, schedulerConfig: 21, blank: 0, other: 0 }, // CONT
      warnLines: 2, // LEVEL WARN
      errorLines: 4, // LEVEL ERROR (SIGTERM and interrupted threads at shutdown)
      fatalLines: 0,
      linesWithTabs: 37, // grep -c $'\t' $F
      timestampedLinesWithTabs: 37, // = auditLines
      longestLineChars: 19523, // LONG (STARTUP_MSG classpath)
      longestLineNumber: 8,
      timestampsGoingBackwards: [], // BACK
      logClockUtcOffsetHours: 0, // NEW_SAVING line minus summary startTime = 2 and 22 ms
      notes: [
        'The VM clock read 2026: the timestamps are in the future, so do not reject them.',
        '2.8.5 prints `Container: [ContainerId: ..., Version: 0, NodeId: ...` (FORMATS.md says Version is 2.9+ only).',
        'Node registration order varies: here the RMNodeImpl NEW to RUNNING line comes before the ResourceTrackerService line.',
      ],
    },
    // WORKLOAD.md "Ground truth" table. Check:
    // diff <(grep -E '^\| application_' WORKLOAD.md | awk -F'|' '{gsub(/ /,"",$2); gsub(/ /,"",$10); gsub(/ /,"",$7); gsub(/ /,"",$8); gsub(/ /,"",$9); print $2, $10, $7, $8, $9}' | sort) \
    //      <(grep -o 'ApplicationSummary: .*' rm.log | sed -E 's/.*appId=([^,]+),.*queue=([^,]+),state=([A-Z]+),.*startTime=([0-9]+),finishTime=([0-9]+),finalStatus=([A-Z]+).*/\1 \2 \4 \5 \3\/\6/' | sort |
    //        while read id q s e st; do printf "%s %s %s %s %s\n" $id $q "$(date -u -d @$((s/1000)) +%H:%M:%S).$(printf %03d $((s%1000)))" "$(date -u -d @$((e/1000)) +%H:%M:%S).$(printf %03d $((e%1000)))" $st; done)
    // -> no difference; memorySeconds compared the same way -> no difference.
    groundTruth: [
      { appId: 'application_1795309050754_0001', tag: 'wc', queue: 'default', rmStartTime: '00:57:54.448', rmFinishTime: '00:58:37.605', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 3, reduces: 1, memoryMbSeconds: 135046, agreesWithSummary: true },
      { appId: 'application_1795309050754_0002', tag: 'pi', queue: 'default', rmStartTime: '00:57:58.802', rmFinishTime: '00:58:35.253', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 4, reduces: 1, memoryMbSeconds: 126594, agreesWithSummary: true },
    ],
  },

  // ---------------------------------------------------------------------------------------------
  {
    path: 'hadoop285-realrun-fair-2queues/rm.log',
    layout: 'log4j-iso8601',
    lines: 1899, // wc -l < $F (WORKLOAD.md says 1899 too)
    bytes: 450950, // wc -c < $F
    firstTimestamp: '2026-11-22 00:50:43,074', // grep -E "$TS" $F | head -1 | cut -c1-23
    lastTimestamp: '2026-11-22 00:57:23,962', // grep -E "$TS" $F | tail -1 | cut -c1-23
    hadoopVersion: '2.8.5', // grep 'STARTUP_MSG:   version' $F
    scheduler: 'FairScheduler',
    schedulerEvidence: 'Using Scheduler: org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler',
    rmStarts: 1, // grep -c 'STARTUP_MSG: Starting ResourceManager' $F
    rmStartTimestamps: ['2026-11-22 00:50:43,074'],
    rmShutdowns: 1, // grep -c 'SHUTDOWN_MSG: Shutting down ResourceManager' $F
    nodes: {
      registrationLines: 2, // grep -c 'registered with capability' $F; x-check: grep -c 'Added node' $F -> 2 (`cluster capacity:` wording)
      distinctNodeIds: 2,
      removedNodeIds: ['localhost:45454', 'localhost:45455'], // grep 'Removed node' $F, both at shutdown
      mentionedOnlyNodeIds: [],
      // x-check of containersAssigned: `Released container ... on host` per node -> 56/59
      nodes: [
        { nodeId: 'localhost:45454', httpPort: 8042, capability: MB8192x8, registeredAt: '2026-11-22 00:50:56,657', removedAt: '2026-11-22 00:57:23,911', removedBecause: 'SHUTDOWN', containersAssigned: 56 },
        { nodeId: 'localhost:45455', httpPort: 8043, capability: MB8192x8, registeredAt: '2026-11-22 00:50:56,658', removedAt: '2026-11-22 00:57:23,926', removedBecause: 'SHUTDOWN', containersAssigned: 59 },
      ],
    },
    apps: {
      submitted: 12, // grep 'State change from NEW to NEW_SAVING' $F | grep -c 'RMAppImpl: application_'
      mentionedOnlyIds: [], // grep -oE 'application_[0-9]+_[0-9]+' $F | sort -u | wc -l -> 12
      allocatedButNeverSubmittedIds: [],
      withSummary: 12, // grep -c 'ApplicationSummary: appId=' $F (written in finish order, not id order)
      reachedFinished: 12, // x-check: 12 summaries state=FINISHED; 12 audit `Application Finished - Succeeded`
      reachedFailed: 0,
      reachedKilled: 0,
      // FairScheduler 2.8: sizes from `SchedulerNode: Assigned container`, no priorities at INFO.
      // The AM container is often NOT _000001 (_000040, _000060, _000012): the per-app container counter
      // skips numbers, so a parser must take the AM from the MasterContainer / AM launch lines.
      // x-check of containersAllocated: audit per APPID and `Assigned container` per app -> 12 10 6 6 16 15 7 7 13 12 6 5.
      // x-check of taskContainersRunning against jhist MAP/REDUCE_ATTEMPT_STARTED: 9 9 5 5 15 14 6 6 11 11 4 4 (equal).
      // acceptedQueue from `FairScheduler: Accepted application ... in queue: alpha` (short name; the summary says root.alpha).
      apps: [
        { appId: 'application_1795308644328_0001', submittedAt: '2026-11-22 00:51:10,031', acceptedQueue: 'alpha', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'Sleep job', user: 'root', queue: 'root.alpha', state: 'FINISHED', finalStatus: 'SUCCEEDED', startTimeMs: 1795308669963, finishTimeMs: 1795308742711, memoryMbSeconds: 367392, vcoreSeconds: 352 },
          containersAllocated: 12, amContainerId: 'container_1795308644328_0001_01_000001', amContainerNodeId: 'localhost:45455', amContainerSize: MB1024,
          taskContainersRunning: 9, taskContainersReleasedUnused: 2, taskContainers: [{ size: MB1024, priority: null, count: 11 }] }, // PERAPP
        { appId: 'application_1795308644328_0002', submittedAt: '2026-11-22 00:51:21,409', acceptedQueue: 'beta', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'Sleep job', user: 'root', queue: 'root.beta', state: 'FINISHED', finalStatus: 'SUCCEEDED', startTimeMs: 1795308681405, finishTimeMs: 1795308804055, memoryMbSeconds: 506434, vcoreSeconds: 491 },
          containersAllocated: 10, amContainerId: 'container_1795308644328_0002_01_000001', amContainerNodeId: 'localhost:45454', amContainerSize: MB1024,
          taskContainersRunning: 9, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: null, count: 9 }] }, // PERAPP
        { appId: 'application_1795308644328_0003', submittedAt: '2026-11-22 00:51:31,312', acceptedQueue: 'alpha', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'Sleep job', user: 'root', queue: 'root.alpha', state: 'FINISHED', finalStatus: 'SUCCEEDED', startTimeMs: 1795308691310, finishTimeMs: 1795308816323, memoryMbSeconds: 329996, vcoreSeconds: 319 },
          containersAllocated: 6, amContainerId: 'container_1795308644328_0003_01_000001', amContainerNodeId: 'localhost:45454', amContainerSize: MB1024,
          taskContainersRunning: 5, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: null, count: 5 }] }, // PERAPP
        { appId: 'application_1795308644328_0004', submittedAt: '2026-11-22 00:51:41,417', acceptedQueue: 'beta', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'Sleep job', user: 'root', queue: 'root.beta', state: 'FINISHED', finalStatus: 'SUCCEEDED', startTimeMs: 1795308701416, finishTimeMs: 1795308880362, memoryMbSeconds: 379214, vcoreSeconds: 366 },
          containersAllocated: 6, amContainerId: 'container_1795308644328_0004_01_000001', amContainerNodeId: 'localhost:45454', amContainerSize: MB1024,
          taskContainersRunning: 5, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: null, count: 5 }] }, // PERAPP
        // 12 maps + 2 reduces, but 15 task containers ran: the jhist has 3 REDUCE_ATTEMPT_STARTED, 1 REDUCE_ATTEMPT_KILLED.
        { appId: 'application_1795308644328_0005', submittedAt: '2026-11-22 00:51:52,538', acceptedQueue: 'alpha', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'Sleep job', user: 'root', queue: 'root.alpha', state: 'FINISHED', finalStatus: 'SUCCEEDED', startTimeMs: 1795308712533, finishTimeMs: 1795308952444, memoryMbSeconds: 611885, vcoreSeconds: 591 },
          containersAllocated: 16, amContainerId: 'container_1795308644328_0005_01_000040', amContainerNodeId: 'localhost:45454', amContainerSize: MB1024,
          taskContainersRunning: 15, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: null, count: 15 }] }, // PERAPP
        { appId: 'application_1795308644328_0006', submittedAt: '2026-11-22 00:51:56,904', acceptedQueue: 'beta', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'Sleep job', user: 'root', queue: 'root.beta', state: 'FINISHED', finalStatus: 'SUCCEEDED', startTimeMs: 1795308716902, finishTimeMs: 1795308959699, memoryMbSeconds: 580286, vcoreSeconds: 559 },
          containersAllocated: 15, amContainerId: 'container_1795308644328_0006_01_000001', amContainerNodeId: 'localhost:45455', amContainerSize: MB1024,
          taskContainersRunning: 14, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: null, count: 14 }] }, // PERAPP
        { appId: 'application_1795308644328_0007', submittedAt: '2026-11-22 00:52:01,217', acceptedQueue: 'alpha', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'Sleep job', user: 'root', queue: 'root.alpha', state: 'FINISHED', finalStatus: 'SUCCEEDED', startTimeMs: 1795308721216, finishTimeMs: 1795308952792, memoryMbSeconds: 265634, vcoreSeconds: 256 },
          containersAllocated: 7, amContainerId: 'container_1795308644328_0007_01_000060', amContainerNodeId: 'localhost:45454', amContainerSize: MB1024,
          taskContainersRunning: 6, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: null, count: 6 }] }, // PERAPP
        { appId: 'application_1795308644328_0008', submittedAt: '2026-11-22 00:52:04,830', acceptedQueue: 'beta', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'Sleep job', user: 'root', queue: 'root.beta', state: 'FINISHED', finalStatus: 'SUCCEEDED', startTimeMs: 1795308724725, finishTimeMs: 1795308931406, memoryMbSeconds: 383619, vcoreSeconds: 371 },
          containersAllocated: 7, amContainerId: 'container_1795308644328_0008_01_000001', amContainerNodeId: 'localhost:45454', amContainerSize: MB1024,
          taskContainersRunning: 6, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: null, count: 6 }] }, // PERAPP
        { appId: 'application_1795308644328_0009', submittedAt: '2026-11-22 00:52:09,521', acceptedQueue: 'alpha', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'Sleep job', user: 'root', queue: 'root.alpha', state: 'FINISHED', finalStatus: 'SUCCEEDED', startTimeMs: 1795308729519, finishTimeMs: 1795309010622, memoryMbSeconds: 371809, vcoreSeconds: 357 },
          containersAllocated: 13, amContainerId: 'container_1795308644328_0009_01_000060', amContainerNodeId: 'localhost:45455', amContainerSize: MB1024,
          taskContainersRunning: 11, taskContainersReleasedUnused: 1, taskContainers: [{ size: MB1024, priority: null, count: 12 }] }, // PERAPP
        { appId: 'application_1795308644328_0010', submittedAt: '2026-11-22 00:52:11,308', acceptedQueue: 'beta', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'Sleep job', user: 'root', queue: 'root.beta', state: 'FINISHED', finalStatus: 'SUCCEEDED', startTimeMs: 1795308731263, finishTimeMs: 1795308962528, memoryMbSeconds: 492434, vcoreSeconds: 475 },
          containersAllocated: 12, amContainerId: 'container_1795308644328_0010_01_000001', amContainerNodeId: 'localhost:45455', amContainerSize: MB1024,
          taskContainersRunning: 11, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: null, count: 11 }] }, // PERAPP
        { appId: 'application_1795308644328_0011', submittedAt: '2026-11-22 00:52:13,101', acceptedQueue: 'alpha', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'Sleep job', user: 'root', queue: 'root.alpha', state: 'FINISHED', finalStatus: 'SUCCEEDED', startTimeMs: 1795308733100, finishTimeMs: 1795309021607, memoryMbSeconds: 216106, vcoreSeconds: 209 },
          containersAllocated: 6, amContainerId: 'container_1795308644328_0011_01_000060', amContainerNodeId: 'localhost:45455', amContainerSize: MB1024,
          taskContainersRunning: 4, taskContainersReleasedUnused: 1, taskContainers: [{ size: MB1024, priority: null, count: 5 }] }, // PERAPP
        { appId: 'application_1795308644328_0012', submittedAt: '2026-11-22 00:52:14,629', acceptedQueue: 'beta', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'Sleep job', user: 'root', queue: 'root.beta', state: 'FINISHED', finalStatus: 'SUCCEEDED', startTimeMs: 1795308734629, finishTimeMs: 1795308970387, memoryMbSeconds: 311530, vcoreSeconds: 302 },
          containersAllocated: 5, amContainerId: 'container_1795308644328_0012_01_000012', amContainerNodeId: 'localhost:45455', amContainerSize: MB1024,
          taskContainersRunning: 4, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: null, count: 4 }] }, // PERAPP
      ],
    },
    containers: {
      // TRANS: 115 NEW->ALLOCATED, 115 ALLOCATED->ACQUIRED, 111 ACQUIRED->RUNNING, 111 RUNNING->COMPLETED, 4 ACQUIRED->RELEASED
      allocated: 115, // x-check: grep -c 'Assigned container ' $F -> 115
      reachedRunning: 111,
      completed: 111, // LAST; x-check: `FSAppAttempt: Completed container: ... in state: COMPLETED` -> 111
      released: 4, // LAST; x-check: `in state: RELEASED` -> 4 (_0001_01_000010, _0001_01_000011, _0011_01_000064, _0009_01_000075)
      killed: 0,
      expired: 0,
      notEndedAtEof: 0, // LAST
      auditAllocated: 115,
      auditReleased: 115,
      perNode: [
        { nodeId: 'localhost:45454', containers: 56 },
        { nodeId: 'localhost:45455', containers: 59 },
      ],
    },
    lineKinds: {
      rmContainerTransitions: 456, // (WORKLOAD.md: 456)
      rmAppStateChanges: 84, // (WORKLOAD.md: 84)
      rmAppAttemptStateChanges: 108, // (WORKLOAD.md: 108)
      auditLines: 267, // (WORKLOAD.md: 267)
      applicationSummaries: 12,
      assignedContainer: 115, // (WORKLOAD.md: 115)
      releasedContainer: 115, // (WORKLOAD.md: 115)
      leafQueueAssignedContainer: 0,
      containerAllocatorAssignedContainer: 0,
      parentQueueAssignedContainer: 0,
      leafQueueCompletedContainer: 0,
      parentQueueCompletedContainer: 0,
      completedContainer: 115, // FSAppAttempt still logs it in 2.8
      attemptReleasedContainer: 115, // FairScheduler: Application attempt ... released container
      nodeTransitions: 4,
      nullContainerCompleted: 0,
      completedWithoutRmContainer: 12, // grep -c "corresponding RMContainer doesn't exist" $F
    },
    quirks: {
      continuationLines: 13, // grep -cvE "$TS" $F
      continuationKinds: { banner: 13, stackTrace: 0, schedulerConfig: 0, blank: 0, other: 0 }, // CONT
      warnLines: 3, // LEVEL WARN
      errorLines: 4, // LEVEL ERROR
      fatalLines: 0,
      linesWithTabs: 267, // grep -c $'\t' $F
      timestampedLinesWithTabs: 267, // = auditLines
      longestLineChars: 19511, // LONG (STARTUP_MSG classpath)
      longestLineNumber: 8,
      timestampsGoingBackwards: [], // BACK
      logClockUtcOffsetHours: 0, // NEW_SAVING line minus summary startTime = 0..105 ms
      notes: [
        'AM containers are not always _000001 (apps 0005, 0007, 0009, 0011, 0012); container numbers of an app have gaps.',
        'Queue names differ between lines: `in queue: alpha` (Accepted application) vs `queue=root.alpha` (summary).',
        'No reservation, preemption, KILLED or EXPIRED lines despite the contention.',
        'The VM clock read 2026.',
      ],
    },
    // WORKLOAD.md "Ground truth" table; same diff as for the wordcount-pi log -> no difference (times, queue,
    // state/finalStatus and memorySeconds all equal the rm.log summaries).
    groundTruth: [
      { appId: 'application_1795308644328_0001', tag: 'a1', queue: 'root.alpha', rmStartTime: '00:51:09.963', rmFinishTime: '00:52:22.711', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 8, reduces: 1, memoryMbSeconds: 367392, agreesWithSummary: true },
      { appId: 'application_1795308644328_0002', tag: 'b1', queue: 'root.beta', rmStartTime: '00:51:21.405', rmFinishTime: '00:53:24.055', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 8, reduces: 1, memoryMbSeconds: 506434, agreesWithSummary: true },
      { appId: 'application_1795308644328_0003', tag: 'a2', queue: 'root.alpha', rmStartTime: '00:51:31.310', rmFinishTime: '00:53:36.323', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 4, reduces: 1, memoryMbSeconds: 329996, agreesWithSummary: true },
      { appId: 'application_1795308644328_0004', tag: 'b2', queue: 'root.beta', rmStartTime: '00:51:41.416', rmFinishTime: '00:54:40.362', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 4, reduces: 1, memoryMbSeconds: 379214, agreesWithSummary: true },
      { appId: 'application_1795308644328_0005', tag: 'a3', queue: 'root.alpha', rmStartTime: '00:51:52.533', rmFinishTime: '00:55:52.444', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 12, reduces: 2, memoryMbSeconds: 611885, agreesWithSummary: true },
      { appId: 'application_1795308644328_0006', tag: 'b3', queue: 'root.beta', rmStartTime: '00:51:56.902', rmFinishTime: '00:55:59.699', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 12, reduces: 2, memoryMbSeconds: 580286, agreesWithSummary: true },
      { appId: 'application_1795308644328_0007', tag: 'a4', queue: 'root.alpha', rmStartTime: '00:52:01.216', rmFinishTime: '00:55:52.792', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 6, reduces: 0, memoryMbSeconds: 265634, agreesWithSummary: true },
      { appId: 'application_1795308644328_0008', tag: 'b4', queue: 'root.beta', rmStartTime: '00:52:04.725', rmFinishTime: '00:55:31.406', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 6, reduces: 0, memoryMbSeconds: 383619, agreesWithSummary: true },
      { appId: 'application_1795308644328_0009', tag: 'a5', queue: 'root.alpha', rmStartTime: '00:52:09.519', rmFinishTime: '00:56:50.622', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 10, reduces: 1, memoryMbSeconds: 371809, agreesWithSummary: true },
      { appId: 'application_1795308644328_0010', tag: 'b5', queue: 'root.beta', rmStartTime: '00:52:11.263', rmFinishTime: '00:56:02.528', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 10, reduces: 1, memoryMbSeconds: 492434, agreesWithSummary: true },
      { appId: 'application_1795308644328_0011', tag: 'a6', queue: 'root.alpha', rmStartTime: '00:52:13.100', rmFinishTime: '00:57:01.607', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 3, reduces: 1, memoryMbSeconds: 216106, agreesWithSummary: true },
      { appId: 'application_1795308644328_0012', tag: 'b6', queue: 'root.beta', rmStartTime: '00:52:14.629', rmFinishTime: '00:56:10.387', stateFinalStatus: 'FINISHED/SUCCEEDED', maps: 3, reduces: 1, memoryMbSeconds: 311530, agreesWithSummary: true },
    ],
  },

  // ---------------------------------------------------------------------------------------------
  {
    path: 'kyoon3-hadoop265-cs/yarn-root-resourcemanager-ip-172-31-2-135.log',
    layout: 'log4j-iso8601',
    lines: 2511, // wc -l < $F
    bytes: 642446, // wc -c < $F
    firstTimestamp: '2018-11-14 08:46:11,251', // grep -E "$TS" $F | head -1 | cut -c1-23
    lastTimestamp: '2018-11-15 01:19:07,426', // grep -E "$TS" $F | tail -1 | cut -c1-23
    hadoopVersion: '2.6.5', // grep 'STARTUP_MSG:   version' $F (3 identical lines)
    scheduler: 'CapacityScheduler',
    // 4 `Using Scheduler` lines for 3 starts: the failed first start logs it twice (active services are rebuilt
    // on the way to standby after the bind error): grep -n 'Using Scheduler' $F -> lines 21, 177, 334, 2409
    schedulerEvidence: 'Using Scheduler: org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler (4 lines)',
    rmStarts: 3, // grep -c 'STARTUP_MSG: Starting ResourceManager' $F
    // grep -E 'ResourceManager: STARTUP_MSG: $' $F | cut -c1-23. The first start dies with
    // `FATAL ... Error starting ResourceManager` (UnresolvedAddressException) 2 s later.
    rmStartTimestamps: ['2018-11-14 08:46:11,251', '2018-11-14 09:51:29,236', '2018-11-15 01:09:05,934'],
    rmShutdowns: 2, // grep -c 'SHUTDOWN_MSG: Shutting down ResourceManager' $F (the third run is still up at the end)
    nodes: {
      registrationLines: 2, // grep -c 'registered with capability' $F; x-check: grep -c 'Added node' $F -> 2
      distinctNodeIds: 2, // the same NM host, a new port after the restart
      removedNodeIds: [], // grep -c 'Removed node' $F -> 0 (master:51123 just disappears with RM run 2)
      mentionedOnlyNodeIds: [],
      // x-check of containersAssigned: LeafQueue NodeId -> 69 master:51123; Released per node -> 69
      nodes: [
        { nodeId: 'master:51123', httpPort: 8042, capability: MB8192x8, registeredAt: '2018-11-14 09:51:33,581', removedAt: null, removedBecause: null, containersAssigned: 69 },
        { nodeId: 'master:52362', httpPort: 8042, capability: MB8192x8, registeredAt: '2018-11-15 01:09:10,798', removedAt: null, removedBecause: null, containersAssigned: 0 },
      ],
    },
    apps: {
      submitted: 12, // grep 'State change from NEW to NEW_SAVING' $F | grep -oE 'application_[0-9]+_[0-9]+' | sort -u | wc -l
      mentionedOnlyIds: [], // grep -oE 'application_[0-9]+_[0-9]+' $F | sort -u | wc -l -> 12
      // grep -n 'Allocated new applicationId\|submitted by user' $F: ids 1 and 3 are allocated (12:25:34, 12:48:24)
      // with no `Application with id n submitted` after them.
      allocatedButNeverSubmittedIds: ['application_1542189090588_0001', 'application_1542189090588_0003'],
      withSummary: 12, // grep -c 'ApplicationSummary: appId=' $F
      // RMAppImpl reaches FINISHED for all 12 (FINISHING to FINISHED); the summaries say state=FINISHED,
      // finalStatus=FAILED: the MR job failed, the YARN app finished normally.
      reachedFinished: 12,
      reachedFailed: 0,
      reachedKilled: 0,
      // Priorities from `LeafQueue: assignedContainer`: 20 = map, 5 = fast-fail map re-run, 10 = reduce.
      // x-check of containersAllocated: audit per APPID and `Assigned container` per app -> 5 x11, then 14.
      apps: [
        { appId: 'application_1542189090588_0002', submittedAt: '2018-11-14 12:38:59,329', acceptedQueue: 'default', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'MovieScore.jar', user: 'root', queue: 'default', state: 'FINISHED', finalStatus: 'FAILED', startTimeMs: 1542199139327, finishTimeMs: 1542199162384, memoryMbSeconds: null, vcoreSeconds: null },
          containersAllocated: 5, amContainerId: 'container_1542189090588_0002_01_000001', amContainerNodeId: 'master:51123', amContainerSize: MB2048,
          taskContainersRunning: 4, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: 20, count: 1 }, { size: MB1024, priority: 5, count: 3 }] }, // PERAPP
        { appId: 'application_1542189090588_0004', submittedAt: '2018-11-14 12:49:13,880', acceptedQueue: 'default', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'MovieScore.jar', user: 'root', queue: 'default', state: 'FINISHED', finalStatus: 'FAILED', startTimeMs: 1542199753879, finishTimeMs: 1542199775666, memoryMbSeconds: null, vcoreSeconds: null },
          containersAllocated: 5, amContainerId: 'container_1542189090588_0004_01_000001', amContainerNodeId: 'master:51123', amContainerSize: MB2048,
          taskContainersRunning: 4, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: 20, count: 1 }, { size: MB1024, priority: 5, count: 3 }] }, // PERAPP
        { appId: 'application_1542189090588_0005', submittedAt: '2018-11-14 12:52:32,289', acceptedQueue: 'default', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'MovieScore.jar', user: 'root', queue: 'default', state: 'FINISHED', finalStatus: 'FAILED', startTimeMs: 1542199952289, finishTimeMs: 1542199978066, memoryMbSeconds: null, vcoreSeconds: null },
          containersAllocated: 5, amContainerId: 'container_1542189090588_0005_01_000001', amContainerNodeId: 'master:51123', amContainerSize: MB2048,
          taskContainersRunning: 4, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: 20, count: 1 }, { size: MB1024, priority: 5, count: 3 }] }, // PERAPP
        { appId: 'application_1542189090588_0006', submittedAt: '2018-11-14 12:56:49,576', acceptedQueue: 'default', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'MovieScore.jar', user: 'root', queue: 'default', state: 'FINISHED', finalStatus: 'FAILED', startTimeMs: 1542200209575, finishTimeMs: 1542200234557, memoryMbSeconds: null, vcoreSeconds: null },
          containersAllocated: 5, amContainerId: 'container_1542189090588_0006_01_000001', amContainerNodeId: 'master:51123', amContainerSize: MB2048,
          taskContainersRunning: 4, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: 20, count: 1 }, { size: MB1024, priority: 5, count: 3 }] }, // PERAPP
        { appId: 'application_1542189090588_0007', submittedAt: '2018-11-14 13:04:42,834', acceptedQueue: 'default', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'MovieScore.jar', user: 'root', queue: 'default', state: 'FINISHED', finalStatus: 'FAILED', startTimeMs: 1542200682833, finishTimeMs: 1542200708324, memoryMbSeconds: null, vcoreSeconds: null },
          containersAllocated: 5, amContainerId: 'container_1542189090588_0007_01_000001', amContainerNodeId: 'master:51123', amContainerSize: MB2048,
          taskContainersRunning: 4, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: 20, count: 1 }, { size: MB1024, priority: 5, count: 3 }] }, // PERAPP
        { appId: 'application_1542189090588_0008', submittedAt: '2018-11-14 13:18:09,952', acceptedQueue: 'default', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'MovieScore.jar', user: 'root', queue: 'default', state: 'FINISHED', finalStatus: 'FAILED', startTimeMs: 1542201489952, finishTimeMs: 1542201515172, memoryMbSeconds: null, vcoreSeconds: null },
          containersAllocated: 5, amContainerId: 'container_1542189090588_0008_01_000001', amContainerNodeId: 'master:51123', amContainerSize: MB2048,
          taskContainersRunning: 4, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: 20, count: 1 }, { size: MB1024, priority: 5, count: 3 }] }, // PERAPP
        { appId: 'application_1542189090588_0009', submittedAt: '2018-11-14 13:19:30,033', acceptedQueue: 'default', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'MovieScore.jar', user: 'root', queue: 'default', state: 'FINISHED', finalStatus: 'FAILED', startTimeMs: 1542201570032, finishTimeMs: 1542201595416, memoryMbSeconds: null, vcoreSeconds: null },
          containersAllocated: 5, amContainerId: 'container_1542189090588_0009_01_000001', amContainerNodeId: 'master:51123', amContainerSize: MB2048,
          taskContainersRunning: 4, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: 20, count: 1 }, { size: MB1024, priority: 5, count: 3 }] }, // PERAPP
        { appId: 'application_1542189090588_0010', submittedAt: '2018-11-14 13:25:19,428', acceptedQueue: 'default', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'MovieScore.jar', user: 'root', queue: 'default', state: 'FINISHED', finalStatus: 'FAILED', startTimeMs: 1542201919427, finishTimeMs: 1542201944919, memoryMbSeconds: null, vcoreSeconds: null },
          containersAllocated: 5, amContainerId: 'container_1542189090588_0010_01_000001', amContainerNodeId: 'master:51123', amContainerSize: MB2048,
          taskContainersRunning: 4, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: 20, count: 1 }, { size: MB1024, priority: 5, count: 3 }] }, // PERAPP
        { appId: 'application_1542189090588_0011', submittedAt: '2018-11-14 13:26:24,972', acceptedQueue: 'default', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'MovieScore.jar', user: 'root', queue: 'default', state: 'FINISHED', finalStatus: 'FAILED', startTimeMs: 1542201984971, finishTimeMs: 1542202006733, memoryMbSeconds: null, vcoreSeconds: null },
          containersAllocated: 5, amContainerId: 'container_1542189090588_0011_01_000001', amContainerNodeId: 'master:51123', amContainerSize: MB2048,
          taskContainersRunning: 4, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: 20, count: 1 }, { size: MB1024, priority: 5, count: 3 }] }, // PERAPP
        { appId: 'application_1542189090588_0012', submittedAt: '2018-11-14 13:31:24,611', acceptedQueue: 'default', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'MovieScore.jar', user: 'root', queue: 'default', state: 'FINISHED', finalStatus: 'FAILED', startTimeMs: 1542202284611, finishTimeMs: 1542202310240, memoryMbSeconds: null, vcoreSeconds: null },
          containersAllocated: 5, amContainerId: 'container_1542189090588_0012_01_000001', amContainerNodeId: 'master:51123', amContainerSize: MB2048,
          taskContainersRunning: 4, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: 20, count: 1 }, { size: MB1024, priority: 5, count: 3 }] }, // PERAPP
        { appId: 'application_1542189090588_0013', submittedAt: '2018-11-14 13:36:00,958', acceptedQueue: 'default', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'MovieScore.jar', user: 'root', queue: 'default', state: 'FINISHED', finalStatus: 'FAILED', startTimeMs: 1542202560958, finishTimeMs: 1542202587130, memoryMbSeconds: null, vcoreSeconds: null },
          containersAllocated: 5, amContainerId: 'container_1542189090588_0013_01_000001', amContainerNodeId: 'master:51123', amContainerSize: MB2048,
          taskContainersRunning: 4, taskContainersReleasedUnused: 0, taskContainers: [{ size: MB1024, priority: 20, count: 1 }, { size: MB1024, priority: 5, count: 3 }] }, // PERAPP
        { appId: 'application_1542189090588_0014', submittedAt: '2018-11-14 13:42:00,605', acceptedQueue: 'default', lastAppState: 'FINISHED', attempts: 1,
          summary: { name: 'MovieScore.jar', user: 'root', queue: 'default', state: 'FINISHED', finalStatus: 'FAILED', startTimeMs: 1542202920604, finishTimeMs: 1542202954103, memoryMbSeconds: null, vcoreSeconds: null },
          containersAllocated: 14, amContainerId: 'container_1542189090588_0014_01_000001', amContainerNodeId: 'master:51123', amContainerSize: MB2048,
          taskContainersRunning: 9, taskContainersReleasedUnused: 4, taskContainers: [{ size: MB1024, priority: 20, count: 1 }, { size: MB1024, priority: 10, count: 12 }] }, // PERAPP
      ],
    },
    containers: {
      // TRANS: 69 NEW->ALLOCATED, 69 ALLOCATED->ACQUIRED, 65 ACQUIRED->RUNNING, 65 RUNNING->COMPLETED, 4 ACQUIRED->RELEASED
      allocated: 69, // x-check: grep -c 'Assigned container ' $F -> 69; grep -c 'LeafQueue: assignedContainer' $F -> 69
      reachedRunning: 65,
      completed: 65, // LAST; x-check: `Completed container: ... in state: COMPLETED` -> 65
      // LAST; x-check: `in state: RELEASED` -> 4. (SOURCE.md says all 69 `Completed container` lines are
      // `in state: COMPLETED event:FINISHED`; 4 are in fact `in state: RELEASED event:RELEASED`.)
      released: 4,
      killed: 0,
      expired: 0,
      notEndedAtEof: 0, // LAST
      auditAllocated: 69,
      auditReleased: 69,
      perNode: [{ nodeId: 'master:51123', containers: 69 }],
    },
    lineKinds: {
      rmContainerTransitions: 272,
      rmAppStateChanges: 84,
      rmAppAttemptStateChanges: 108,
      auditLines: 174,
      applicationSummaries: 12,
      assignedContainer: 69,
      releasedContainer: 69,
      leafQueueAssignedContainer: 69,
      containerAllocatorAssignedContainer: 0,
      parentQueueAssignedContainer: 69,
      leafQueueCompletedContainer: 69,
      parentQueueCompletedContainer: 69,
      completedContainer: 69,
      attemptReleasedContainer: 69,
      nodeTransitions: 2,
      nullContainerCompleted: 13, // grep -c 'Null container completed' $F
      completedWithoutRmContainer: 0,
    },
    quirks: {
      continuationLines: 289, // grep -cvE "$TS" $F
      continuationKinds: { banner: 33, stackTrace: 172, schedulerConfig: 80, blank: 4, other: 0 }, // CONT
      warnLines: 26, // LEVEL WARN (24 `maximum-am-resource-percent is insufficient`, 2 at start-up/shutdown)
      errorLines: 8, // LEVEL ERROR
      fatalLines: 1, // LEVEL FATAL (`Error starting ResourceManager`)
      linesWithTabs: 330, // grep -c $'\t' $F: 174 audit lines + 156 stack-trace lines (`\tat ...`)
      timestampedLinesWithTabs: 174, // = auditLines
      longestLineChars: 26503, // LONG (the third STARTUP_MSG classpath)
      longestLineNumber: 2395,
      // BACK: two 1 ms steps back, both between the `ApplicationSummary` line and the next `ParentQueue`/`LeafQueue` line
      timestampsGoingBackwards: [
        { lineNumber: 1761, timestamp: '2018-11-14 13:26:53,197', previousTimestamp: '2018-11-14 13:26:53,198' },
        { lineNumber: 2047, timestamp: '2018-11-14 13:36:33,590', previousTimestamp: '2018-11-14 13:36:33,591' },
      ],
      logClockUtcOffsetHours: 0, // NEW_SAVING line minus summary startTime = 0..2 ms for all 12 apps
      notes: [
        'First RM start fails (bind error, FATAL) and writes a second `Using Scheduler` and queue dump before the SHUTDOWN_MSG.',
        'Timestamps go back by 1 ms twice (multi-threaded logging).',
        'Every MR job failed, but RMAppImpl state is FINISHED with finalStatus=FAILED.',
        'RM run 3 registers a new node id (new NM port) and runs no apps; the old node is never removed.',
      ],
    },
    groundTruth: null,
  },

  // ---------------------------------------------------------------------------------------------
  {
    path: 'kyoon3-hadoop265-cs/yarn-root-resourcemanager-master.log',
    layout: 'log4j-iso8601',
    lines: 160, // wc -l < $F
    bytes: 47993, // wc -c < $F
    firstTimestamp: '2018-11-14 09:37:32,600', // grep -E "$TS" $F | head -1 | cut -c1-23
    lastTimestamp: '2018-11-14 09:45:41,480', // grep -E "$TS" $F | tail -1 | cut -c1-23
    hadoopVersion: '2.6.5', // grep 'STARTUP_MSG:   version' $F
    scheduler: 'CapacityScheduler',
    schedulerEvidence: 'Using Scheduler: org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler',
    rmStarts: 1, // grep -c 'STARTUP_MSG: Starting ResourceManager' $F
    rmStartTimestamps: ['2018-11-14 09:37:32,600'],
    rmShutdowns: 1, // grep -c 'SHUTDOWN_MSG: Shutting down ResourceManager' $F
    nodes: {
      registrationLines: 1, // grep -c 'registered with capability' $F; x-check: grep -c 'Added node' $F -> 1
      distinctNodeIds: 1,
      removedNodeIds: [], // grep -c 'Removed node' $F -> 0
      mentionedOnlyNodeIds: [],
      nodes: [
        { nodeId: 'master:39989', httpPort: 8042, capability: MB8192x8, registeredAt: '2018-11-14 09:37:37,169', removedAt: null, removedBecause: null, containersAssigned: 0 },
      ],
    },
    apps: {
      submitted: 0, // grep -cE 'application_|container_' $F -> 0
      mentionedOnlyIds: [],
      allocatedButNeverSubmittedIds: [], // grep -c 'Allocated new applicationId' $F -> 0
      withSummary: 0,
      reachedFinished: 0,
      reachedFailed: 0,
      reachedKilled: 0,
      apps: [],
    },
    containers: {
      allocated: 0, // grep -c 'NEW to ALLOCATED' $F
      reachedRunning: 0,
      completed: 0,
      released: 0,
      killed: 0,
      expired: 0,
      notEndedAtEof: 0,
      auditAllocated: 0,
      auditReleased: 0,
      perNode: [],
    },
    lineKinds: {
      rmContainerTransitions: 0,
      rmAppStateChanges: 0,
      rmAppAttemptStateChanges: 0,
      auditLines: 0,
      applicationSummaries: 0,
      assignedContainer: 0,
      releasedContainer: 0,
      leafQueueAssignedContainer: 0,
      containerAllocatorAssignedContainer: 0,
      parentQueueAssignedContainer: 0,
      leafQueueCompletedContainer: 0,
      parentQueueCompletedContainer: 0,
      completedContainer: 0,
      attemptReleasedContainer: 0,
      nodeTransitions: 1,
      nullContainerCompleted: 0,
      completedWithoutRmContainer: 0,
    },
    quirks: {
      continuationLines: 33, // grep -cvE "$TS" $F
      continuationKinds: { banner: 12, stackTrace: 0, schedulerConfig: 20, blank: 1, other: 0 }, // CONT
      warnLines: 3, // LEVEL WARN
      errorLines: 6, // LEVEL ERROR (all at the SIGTERM shutdown)
      fatalLines: 0,
      linesWithTabs: 0, // grep -c $'\t' $F
      timestampedLinesWithTabs: 0,
      longestLineChars: 26488, // LONG (STARTUP_MSG classpath)
      longestLineNumber: 7,
      timestampsGoingBackwards: [], // BACK
      logClockUtcOffsetHours: null, // no summary to compare with
      notes: [
        'Start-up and shutdown only: a parser must return zero apps and containers, one node, and no error.',
        'Its 09:37-09:45 run falls in the gap between RM runs 1 and 2 of the ip-172-31-2-135 log (same host, renamed).',
      ],
    },
    groundTruth: null,
  },

  // ---------------------------------------------------------------------------------------------
  {
    path: 'lohitha-hadoop281-cs/resourcemanager.log',
    layout: 'log4j-iso8601',
    lines: 922, // wc -l < $F
    bytes: 256578, // wc -c < $F
    firstTimestamp: '2019-02-21 13:32:43,391', // grep -E "$TS" $F | head -1 | cut -c1-23
    lastTimestamp: '2019-02-22 19:02:30,919', // grep -E "$TS" $F | tail -1 | cut -c1-23
    hadoopVersion: '2.8.1', // grep 'STARTUP_MSG:   version' $F (6 identical lines)
    scheduler: 'CapacityScheduler',
    // 5 `Using Scheduler` lines for 6 starts: the first start dies on a bad core-site.xml before creating the scheduler
    schedulerEvidence: 'Using Scheduler: org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler (5 lines)',
    rmStarts: 6, // grep -c 'STARTUP_MSG: Starting ResourceManager' $F
    // grep -E 'ResourceManager: STARTUP_MSG: $' $F | cut -c1-23. Start 1: FATAL `error parsing conf core-site.xml`.
    // Start 5 has no SHUTDOWN_MSG: the log goes straight on to start 6 the next day.
    rmStartTimestamps: [
      '2019-02-21 13:32:43,391',
      '2019-02-21 13:55:20,085',
      '2019-02-21 14:02:34,442',
      '2019-02-21 14:14:33,214',
      '2019-02-21 21:55:55,034',
      '2019-02-22 12:23:16,893',
    ],
    rmShutdowns: 4, // grep -c 'SHUTDOWN_MSG: Shutting down ResourceManager' $F (after starts 1-4)
    nodes: {
      registrationLines: 5, // grep -c 'registered with capability' $F; x-check: grep -c 'Added node' $F -> 5
      distinctNodeIds: 5, // one NM host, a new port at every RM start
      removedNodeIds: [], // grep -c 'Removed node' $F -> 0
      mentionedOnlyNodeIds: [],
      // containersAssigned: `Assigned container ... on host`; x-check: Released per node -> 3 on ubuntu:46355
      nodes: [
        { nodeId: 'ubuntu:40533', httpPort: 8042, capability: MB8192x8, registeredAt: '2019-02-21 14:00:14,244', removedAt: null, removedBecause: null, containersAssigned: 0 },
        { nodeId: 'ubuntu:44297', httpPort: 8042, capability: MB8192x8, registeredAt: '2019-02-21 14:02:43,086', removedAt: null, removedBecause: null, containersAssigned: 0 },
        { nodeId: 'ubuntu:36129', httpPort: 8042, capability: MB8192x8, registeredAt: '2019-02-21 14:14:42,712', removedAt: null, removedBecause: null, containersAssigned: 0 },
        { nodeId: 'ubuntu:46355', httpPort: 8042, capability: MB8192x8, registeredAt: '2019-02-21 21:56:13,200', removedAt: null, removedBecause: null, containersAssigned: 3 },
        { nodeId: 'ubuntu:43657', httpPort: 8042, capability: MB8192x8, registeredAt: '2019-02-22 12:23:32,921', removedAt: null, removedBecause: null, containersAssigned: 0 },
      ],
    },
    apps: {
      submitted: 1, // grep 'State change from NEW to NEW_SAVING' $F | grep -oE 'application_[0-9]+_[0-9]+' | sort -u | wc -l
      mentionedOnlyIds: [], // grep -oE 'application_[0-9]+_[0-9]+' $F | sort -u -> 1 id
      allocatedButNeverSubmittedIds: [],
      withSummary: 1, // grep -c 'ApplicationSummary: appId=' $F
      reachedFinished: 1, // `State change from FINISHING to FINISHED on event=ATTEMPT_FINISHED`; x-check: summary state=FINISHED
      reachedFailed: 0,
      reachedKilled: 0,
      apps: [
        {
          appId: 'application_1550814961661_0001',
          submittedAt: '2019-02-21 23:02:27,450',
          acceptedQueue: 'default',
          lastAppState: 'FINISHED',
          attempts: 1,
          summary: {
            name: 'word count',
            user: 'lohitha',
            queue: 'default',
            state: 'FINISHED',
            finalStatus: 'SUCCEEDED',
            startTimeMs: 1550818947407, // = 2019-02-22 07:02:27.407 UTC; the NEW_SAVING line says 2019-02-21 23:02:27,450 (UTC-8)
            finishTimeMs: 1550818991315,
            memoryMbSeconds: 125992,
            vcoreSeconds: 72,
          },
          containersAllocated: 3, // PERAPP alloc; x-check: 3 audit `AM Allocated Container`, 3 `Assigned container`
          amContainerId: 'container_1550814961661_0001_01_000001',
          amContainerNodeId: 'ubuntu:46355',
          amContainerSize: MB2048,
          taskContainersRunning: 2, // PERAPP taskRun (1 map, 1 reduce, one after the other)
          taskContainersReleasedUnused: 0,
          taskContainers: [{ size: MB1024, priority: null, count: 2 }], // PERAPP GRP (2.8.1: no priority at INFO)
        },
      ],
    },
    containers: {
      // TRANS: 3 NEW->ALLOCATED, 3 ALLOCATED->ACQUIRED, 3 ACQUIRED->RUNNING, 3 RUNNING->COMPLETED
      allocated: 3, // x-check: grep -c 'Assigned container ' $F -> 3
      reachedRunning: 3,
      completed: 3, // LAST
      released: 0,
      killed: 0,
      expired: 0,
      notEndedAtEof: 0, // LAST
      auditAllocated: 3,
      auditReleased: 3,
      perNode: [{ nodeId: 'ubuntu:46355', containers: 3 }],
    },
    lineKinds: {
      rmContainerTransitions: 12,
      rmAppStateChanges: 7,
      rmAppAttemptStateChanges: 9,
      auditLines: 9,
      applicationSummaries: 1,
      assignedContainer: 3,
      releasedContainer: 3,
      leafQueueAssignedContainer: 0,
      containerAllocatorAssignedContainer: 3,
      parentQueueAssignedContainer: 3,
      leafQueueCompletedContainer: 0,
      parentQueueCompletedContainer: 0,
      completedContainer: 0,
      attemptReleasedContainer: 0,
      nodeTransitions: 5,
      nullContainerCompleted: 0,
      completedWithoutRmContainer: 1, // grep -c "corresponding RMContainer doesn't exist" $F
    },
    quirks: {
      continuationLines: 237, // grep -cvE "$TS" $F
      // CONT; the 4 "other" lines are JvmPauseMonitor continuations (`No GCs detected` x2, `GC pool '...' had collection(s)` x2)
      continuationKinds: { banner: 72, stackTrace: 56, schedulerConfig: 105, blank: 0, other: 4 },
      warnLines: 11, // LEVEL WARN
      errorLines: 12, // LEVEL ERROR
      fatalLines: 2, // LEVEL FATAL (`error parsing conf core-site.xml`, `Error starting ResourceManager`)
      linesWithTabs: 60, // grep -c $'\t' $F: 9 audit lines + 51 stack-trace lines
      timestampedLinesWithTabs: 9, // = auditLines
      longestLineChars: 20974, // LONG (STARTUP_MSG classpath)
      longestLineNumber: 225,
      timestampsGoingBackwards: [], // BACK
      logClockUtcOffsetHours: -8, // NEW_SAVING line minus summary startTime = -28,799,957 ms
      notes: [
        '6 RM starts in one file; start 1 fails, start 5 ends without a SHUTDOWN_MSG.',
        'Each restart registers the same host with a new port: 5 node ids, none ever removed.',
        'The last entry (JvmPauseMonitor) is followed by two continuation lines: the file ends inside a multi-line entry.',
        '2.8.1 prints `Container: [ContainerId: ..., Version: 0, NodeId: ...` in the MasterContainer/AMLauncher lines.',
      ],
    },
    groundTruth: null,
  },
];
