// The fast paths of in-place.ts against the general parsers of messages.ts: on every line of
// interest the fixture renders (each scheduler, version and layout), and on lines made to go wrong,
// a fast path either leaves the line to the general parser or reads exactly what it reads, clues
// included, wherever in a block of lines the message lies.

import { describe, expect, it } from 'vitest';
import { HeaderParser } from '../../../src/ingest/rmlog/header.js';
import { IN_PLACE_PARSERS } from '../../../src/ingest/rmlog/in-place.js';
import { MESSAGE_PARSERS } from '../../../src/ingest/rmlog/messages.js';
import { VersionClues } from '../../../src/ingest/rmlog/version.js';
import { renderRmLog } from '../../fixtures/rmlog/render.js';
import { HADOOP_VERSIONS, LOG_LAYOUTS } from '../../fixtures/rmlog/scenario.js';
import { fullClusterReduceScenario, smallScenario } from '../../fixtures/rmlog/scenarios.js';

const C = 'container_1700000000000_0007_01_000003';
const AT = { lineNumber: 12, timeMs: 5000 };

/** What the general parser makes of a message, and the clue its reader takes from it. */
function general(logger: string, message: string): { result: unknown; version: string | null } {
  const clues = new VersionClues();
  clues.observe(logger, message);
  return { result: MESSAGE_PARSERS.get(logger)!(message, { ...AT, logger }), version: clues.version() };
}

/** What the fast path makes of `message` placed at `before`'s end in a block, `after` following it. */
function fast(logger: string, message: string, before = '', after = ''): { result: unknown; version: string | null } {
  const clues = new VersionClues();
  const text = before + message + after;
  const result = IN_PLACE_PARSERS.get(logger)!(text, before.length, before.length + message.length, { ...AT, clues });
  if (result !== null) clues.logger(logger);
  return { result, version: clues.version() };
}

/** The fast path leaves the message to the general parser, or agrees with it, in a block or alone. */
function expectAgreement(logger: string, message: string): boolean {
  const alone = fast(logger, message);
  expect(fast(logger, message, 'x\n', '\r\nUSER=a\tOPERATION=b queue=q: with event: E')).toEqual(alone);
  if (alone.result === null) return false;
  expect(alone).toEqual(general(logger, message));
  return true;
}

describe('in-place fast paths', () => {
  it('read the lines of interest of every version and layout as the general parsers do', () => {
    const taken = new Map<string, number>();
    for (const scenario of [smallScenario('capacity'), smallScenario('fair'), fullClusterReduceScenario('capacity'), fullClusterReduceScenario('fair')]) {
      for (const version of HADOOP_VERSIONS) {
        for (const layout of LOG_LAYOUTS) {
          const headers = new HeaderParser();
          for (const line of renderRmLog(scenario, { version, layout }).split(/\r?\n/)) {
            const header = headers.parse(line);
            if (header === null || !('logger' in header) || !IN_PLACE_PARSERS.has(header.logger)) continue;
            if (expectAgreement(header.logger, header.message)) taken.set(header.logger, (taken.get(header.logger) ?? 0) + 1);
          }
        }
      }
    }
    // Every fast path is used by some version (the fixture renders no AbstractLeafQueue, FifoScheduler or
    // AbstractYarnScheduler line of its shapes: the cases below have them).
    const unrendered = ['AbstractLeafQueue', 'FifoScheduler', 'AbstractYarnScheduler'];
    expect([...taken.keys()].sort()).toEqual([...IN_PLACE_PARSERS.keys()].filter((logger) => !unrendered.includes(logger)).sort());
  });

  it('leave lines that go wrong, or read differently, to the general parsers', () => {
    const cases: [string, string][] = [
      ['RMContainerImpl', `${C} Container Transitioned from ACQUIRED to RUNNING`],
      ['RMContainerImpl', `${C} Container Transitioned from ACQUIRED to RUNNING!`],
      ['RMContainerImpl', `${C} Container Transitioned from ACQUIRED to RUNNING and more`],
      ['RMContainerImpl', `container_1700000000000_0007_01 Container Transitioned from NEW to ALLOCATED`],
      ['RMContainerImpl', `${C}  Container Transitioned from NEW to ALLOCATED`],
      ['RMAppImpl', 'application_1700000000000_0007 State change from ACCEPTED to RUNNING on event = ATTEMPT_REGISTERED'],
      ['RMAppImpl', 'application_1700000000000_0007 State change from SUBMITTED to ACCEPTED on event=APP_ACCEPTED'],
      ['RMAppImpl', 'application_1700000000000_0007 State change from SUBMITTED to ACCEPTED on event =APP_ACCEPTED'],
      ['RMAppImpl', 'application_1700000000000_0007 State change from NEW to NEW_SAVING'],
      ['RMAppImpl', 'application_1700000000000_0007 State change from NEW to NEW_SAVING, then'],
      ['RMAppAttemptImpl', 'appattempt_1700000000000_0007_000002 State change from LAUNCHED to RUNNING on event = REGISTERED'],
      ['SchedulerNode', `Assigned container ${C} of capacity <memory:3072, vCores:2> on host w7:4242, which has 2 containers`],
      ['SchedulerNode', `Assigned container ${C} of capacity <memory:99999999999, vCores:1> on host w7:4242, which has 1 containers`],
      ['SchedulerNode', `Released container ${C} of capacity <<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<memory:3072, vCores:2> on host w7:4242`],
      ['SchedulerNode', `Assigned container ${C} of capacity <memory:3072, vCores:2, yarn.io/gpu: 1> on host w7:4242, which has 2`],
      ['FairScheduler', `Application attempt appattempt_1700000000000_0007_000001 released container ${C} on node: host: w7:4242 #containers=1 available=<memory:6144, vCores:3> used=<memory:2048, vCores:1> with event: FINISHED`],
      ['CapacityScheduler', `Application attempt appattempt_1700000000000_0007_000001 released container ${C} on node: host: w7:4242 #containers=1 available=6144 used=2048 with event: KILL`],
      ['FairScheduler', 'Application appattempt_1700000000000_0007_000001 is done. finalState=FINISHED'],
      ['CapacityScheduler', 'Application Attempt appattempt_1700000000000_0007_000001 is done. finalState=FAILED, more'],
      ['CapacityScheduler', 'Application Attempt appattempt_1700000000000_0007_000001 is done. finalState='],
      ['FairScheduler', 'Accepted application application_1700000000000_0007 from user: ann, in queue: alpha, currently num of applications: 3'],
      ['CapacityScheduler', 'Accepted application application_1700000000000_0007 from user: a,b, in queue: etl'],
      ['RMAppAttemptImpl', `Storing attempt: AppId: application_1700000000000_0007 AttemptId: appattempt_1700000000000_0007_000001 MasterContainer: Container: [ContainerId: ${C}, Version: 0, NodeId: w7:4242, NodeHttpAddress: w7:8042, Resource: <memory:1800, vCores:1>, Priority: 0, Token: Token { kind: ContainerToken, service: 10.0.0.7:4242 }, ]`],
      ['RMAppAttemptImpl', `Storing attempt: AppId: application_1700000000000_0007 AttemptId: appattempt_1700000000000_0007_000001 MasterContainer: Container: [ContainerId: ${C}, NodeId: w7:4242, NodeHttpAddress: w7:8042, Resource: <memory:1800, vCores:1>, Priority: 0, Token: null, ] State change from`],
      ['AbstractYarnScheduler', `Container ${C} completed with event FINISHED, but corresponding RMContainer doesn't exist.`],
      ['AbstractYarnScheduler', `Container ${C} completed with event FINISHED, but corresponding RMContainer doesn't exist. Again.`],
      ['FSAppAttempt', `Completed container: ${C} in state: KILLED event:KILL`],
      ['FSAppAttempt', `Completed container: ${C} in state: KILLED event:`],
      ['LeafQueue', `completedContainer container=Container: [ContainerId: ${C}, NodeId: w7:4242, NodeHttpAddress: w7:8042, Resource: <memory:3072, vCores:2>, Priority: -0, Token: null, ] queue=etl: capacity=0.5`],
      ['LeafQueue', `assignedContainer application attempt=appattempt_1700000000000_0007_000001 container=Container: [ContainerId: ${C}, NodeId: w7:4242, NodeHttpAddress: w7:8042, Resource: <memory:3072, vCores:2>, Priority: 9999999999, Token: null, ] queue=etl: capacity=0.5`],
      ['AbstractLeafQueue', `assignedContainer application attempt=appattempt_1700000000000_0007_000001 container=Container: [ContainerId: ${C}, NodeId: w7:4242, NodeHttpAddress: w7:8042, Resource: <memory:3072, vCores:2>, Priority: 1, Token: null, ] queue=etl: capacity=0.5`],
      ['AppSchedulingInfo', 'checking for deactivate of application :application_1700000000000_0007'],
      ['AppSchedulingInfo', 'checking for deactivate of application :application_1700000000000_0007 '],
      ['RMAuditLogger', ['USER=ann', 'IP=10.0.0.9', 'OPERATION=AM Allocated Container', 'TARGET=SchedulerApp', 'RESULT=SUCCESS', 'APPID=application_1700000000000_0007', `CONTAINERID=${C}`, 'RESOURCE=<memory:3072, vCores:2>', 'QUEUENAME=etl'].join('\t')],
      ['RMAuditLogger', ['USER= ann ', 'OPERATION=Submit Application Request\u00a0', 'TARGET=ClientRMService', 'RESULT=SUCCESS', 'APPID=application_1700000000000_0007', 'APPATTEMPTID='].join('\t')],
      ['RMAuditLogger', ['USER=ann', 'OPERATION=AM Released Container', 'TARGET=SchedulerApp', 'RESULT=SUCCESS', 'CONTAINERID=container_x'].join('\t')],
      ['RMAuditLogger', ['USER=ann', 'OPERATION=x', 'TARGET=y', 'RESULT=SUCCESS', `RESOURCE=<memory:3072, vCores:${'1'.repeat(60)}>`].join('\t')],
      ['RMAuditLogger', ['USER=', 'OPERATION=x', 'TARGET=y', 'RESULT=SUCCESS'].join('\t')],
      ['RMAuditLogger', ['USER=ann', 'OPERATION=x', 'TARGET=y', 'RESULT=SUCCESS', ''].join('\t')],
    ];
    const taken = cases.filter(([logger, message]) => expectAgreement(logger, message)).length;
    expect(taken).toBe(22);
  });

  it('read the clue of a LeafQueue allocation, and of a state change by how it names its event', () => {
    expect(fast('RMAppImpl', 'application_1700000000000_0007 State change from SUBMITTED to ACCEPTED on event=APP_ACCEPTED').version).toBe('2.8');
    expect(fast('RMAppImpl', 'application_1700000000000_0007 State change from NEW to NEW_SAVING').version).toBe('2.2 or 2.6 or 2.7');
    const allocation = `assignedContainer application attempt=appattempt_1700000000000_0007_000001 container=Container: [ContainerId: ${C}, NodeId: w7:4242, NodeHttpAddress: w7:8042, Resource: <memory:3072, vCores:2>, Priority: 1, Token: null, ] queue=etl: capacity=0.5`;
    expect(fast('LeafQueue', allocation).version).toBe('2.2 or 2.6 or 2.7');
    expect(fast('AbstractLeafQueue', allocation).version).toBeNull();
  });
});
