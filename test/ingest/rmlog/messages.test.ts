// Each message parser on lines shaped as docs/log-formats.md describes (values made up for this test).

import { describe, expect, it } from 'vitest';
import { MESSAGE_PARSERS, bannerEvent, parseSummary, queueConfigFrom } from '../../../src/ingest/rmlog/messages.js';
import type { RmEvent } from '../../../src/model/rm-events.js';

const C = 'container_1700000000000_0007_01_000003';
const AT = { lineNumber: 12, timeMs: 5000 };

function parse(logger: string, message: string): RmEvent | { reject: string } | null {
  return MESSAGE_PARSERS.get(logger)!(message, { ...AT, logger });
}

function event(logger: string, message: string): Partial<RmEvent> {
  const result = parse(logger, message);
  if (result === null || 'reject' in result) throw new Error(`not an event: ${JSON.stringify(result)}`);
  return Object.fromEntries(Object.entries(result).filter(([, v]) => v !== null));
}

describe('message parsers', () => {
  it('reads a node registration and the scheduler adding and removing it', () => {
    expect(
      event('ResourceTrackerService', 'NodeManager from node w7(cmPort: 4242 httpPort: 8042) registered with capability: <memory:16384, vCores:12>, assigned nodeId w7:4242, node labels { } '),
    ).toEqual({ kind: 'node_registered', lineNumber: 12, timeMs: 5000, nodeId: 'w7:4242', memoryMb: 16384, vcores: 12, extra: '{"host":"w7","cmPort":4242,"httpPort":8042}' });
    expect(event('CapacityScheduler', 'Added node w7:4242 clusterResource: <memory:32768, vCores:24>')).toMatchObject({ kind: 'node_added', nodeId: 'w7:4242', memoryMb: 32768 });
    expect(event('FairScheduler', 'Removed node w7:4242 cluster capacity: <memory:16384, vCores:12>')).toMatchObject({ kind: 'node_removed', memoryMb: 16384 });
    expect(event('RMNodeImpl', 'w7:4242 Node Transitioned from RUNNING to LOST')).toMatchObject({ kind: 'node_state', nodeId: 'w7:4242', fromState: 'RUNNING', toState: 'LOST' });
  });

  it('reads the CapacityScheduler settings it prints, asynchronous scheduling only when on', () => {
    const line = (asynchronous: boolean) =>
      `Initialized CapacityScheduler with calculator=class org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator, minimumAllocation=<<memory:1024, vCores:1>>, maximumAllocation=<<memory:8192, vCores:8>>, asynchronousScheduling=${asynchronous}, asyncScheduleInterval=20ms`;
    const extra = (asynchronous: boolean) => JSON.parse(event('CapacityScheduler', line(asynchronous)).extra!) as Record<string, unknown>;
    expect(extra(true)).toMatchObject({ asyncScheduling: true, asyncSchedulingIntervalMs: 20 });
    expect(extra(false)).not.toHaveProperty('asyncScheduling');
  });

  it("reads a node's size changing in place, as 2.x and 3.x print it, and ignores an update to the same size", () => {
    const resized = { kind: 'node_resource', nodeId: 'w7', memoryMb: 4096, vcores: 2, extra: '{"fromMemoryMb":16384,"fromVcores":12}' };
    expect(event('AbstractYarnScheduler', 'Update resource on node: w7 from: <memory:16384, vCores:12>, to: <memory:4096, vCores:2>')).toMatchObject(resized);
    expect(event('AbstractYarnScheduler', 'Update resource on node: w7 from: <memory:16384, vCores:12>, to: <memory:4096, vCores:2> in -1 ms')).toMatchObject(resized);
    expect(event('CapacityScheduler', 'Update resource on node: w7:4242 from: <memory:16384, vCores:12>, to: <memory:4096, vCores:2>')).toMatchObject({
      ...resized,
      nodeId: 'w7:4242',
    });
    expect(parse('AbstractYarnScheduler', 'Update resource on node: w7 with the same resource: <memory:16384, vCores:12>')).toBeNull();
    expect(parse('AbstractYarnScheduler', 'Update resource on node: w7 from: <memory:16384, vCores:12>, to: <mem')).toEqual({
      reject: 'unreadable Update resource on node line',
    });
  });

  it('rejects a resource or priority larger than a 32-bit integer rather than storing a wrong one', () => {
    expect(parse('SchedulerNode', `Assigned container ${C} of capacity <memory:99999999999, vCores:1> on host w7:4242, which has 1 containers`)).toEqual({
      reject: 'unreadable Assigned container line',
    });
    expect(
      parse(
        'LeafQueue',
        `assignedContainer application attempt=appattempt_1700000000000_0007_000001 container=Container: [ContainerId: ${C}, NodeId: w7:4242, NodeHttpAddress: w7:8042, Resource: <memory:1024, vCores:1>, Priority: 9999999999, Token: null, ] queue=etl: capacity=1.0`,
      ),
    ).toEqual({ reject: 'unreadable LeafQueue assignedContainer line' });
  });

  it('reads app and attempt state changes in every version wording', () => {
    const app = 'application_1700000000000_0007';
    expect(event('RMAppImpl', `${app} State change from NEW to NEW_SAVING`)).toMatchObject({ kind: 'app_state', subject: app, fromState: 'NEW', toState: 'NEW_SAVING' });
    expect(event('RMAppImpl', `${app} State change from SUBMITTED to ACCEPTED on event=APP_ACCEPTED`)).toMatchObject({ detail: 'APP_ACCEPTED' });
    expect(event('RMAppImpl', `${app} State change from ACCEPTED to RUNNING on event = ATTEMPT_REGISTERED`)).toMatchObject({ toState: 'RUNNING', detail: 'ATTEMPT_REGISTERED' });
    expect(event('RMAppAttemptImpl', 'appattempt_1700000000000_0007_000002 State change from LAUNCHED to RUNNING')).toMatchObject({ kind: 'attempt_state', subject: 'appattempt_1700000000000_0007_000002' });
    expect(event('CapacityScheduler', `Accepted application ${app} from user: ann, in queue: etl`)).toMatchObject({ kind: 'app_accepted', user: 'ann', queue: 'etl' });
    expect(event('FairScheduler', `Accepted application ${app} from user: ann, in queue: alpha, currently num of applications: 3`)).toMatchObject({ queue: 'alpha' });
    expect(event('CapacityScheduler', 'Application Attempt appattempt_1700000000000_0007_000001 is done. finalState=FAILED')).toMatchObject({ kind: 'attempt_done', toState: 'FAILED' });
    expect(event('FairScheduler', 'Application appattempt_1700000000000_0007_000001 is done. finalState=FINISHED')).toMatchObject({ kind: 'attempt_done', toState: 'FINISHED' });
    expect(event('LeafQueue', `Application ${app} from user: ann activated in queue: etl`)).toMatchObject({ kind: 'app_activated', subject: app, queue: 'etl' });
  });

  it('reads container transitions and every allocation line with what it prints', () => {
    expect(event('RMContainerImpl', `${C} Container Transitioned from ACQUIRED to RUNNING`)).toMatchObject({ kind: 'container_state', subject: C, fromState: 'ACQUIRED', toState: 'RUNNING' });
    expect(event('SchedulerNode', `Assigned container ${C} of capacity <memory:3072, vCores:2> on host w7:4242, which has 2 containers, <memory:5120, vCores:3> used and <memory:11264, vCores:9> available after allocation`)).toMatchObject({ kind: 'container_assigned', subject: C, nodeId: 'w7:4242', memoryMb: 3072, vcores: 2 });
    expect(event('LeafQueue', `assignedContainer application attempt=appattempt_1700000000000_0007_000001 container=Container: [ContainerId: ${C}, Version: 0, NodeId: w7:4242, NodeHttpAddress: w7:8042, Resource: <memory:3072, vCores:2>, Priority: 10, Token: null, ] queue=etl: capacity=0.5, absoluteCapacity=0.5 clusterResource=<memory:32768, vCores:24> type=OFF_SWITCH`)).toMatchObject({ subject: C, priority: 10, memoryMb: 3072, queue: 'etl' });
    expect(event('AbstractContainerAllocator', `assignedContainer application attempt=appattempt_1700000000000_0007_000001 container=${C} queue=org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.allocator.RegularContainerAllocator@1f2e3d clusterResource=<memory:32768, vCores:24> type=NODE_LOCAL requestedPartition=`)).toEqual({ kind: 'container_assigned', lineNumber: 12, timeMs: 5000, subject: C });
    expect(event('AbstractContainerAllocator', 'assignedContainer application attempt=appattempt_1700000000000_0007_000001 container=null queue=etl clusterResource=<memory:32768, vCores:24> type=NODE_LOCAL requestedPartition=')).toMatchObject({ subject: 'appattempt_1700000000000_0007_000001', queue: 'etl' });
    expect(event('RMAppAttemptImpl', `Storing attempt: AppId: application_1700000000000_0007 AttemptId: appattempt_1700000000000_0007_000001 MasterContainer: Container: [ContainerId: ${C}, NodeId: w7:4242, NodeHttpAddress: w7:8042, Resource: <memory:1800, vCores:1>, Priority: 0, Token: Token { kind: ContainerToken, service: 10.0.0.7:4242 }, ]`)).toMatchObject({ kind: 'am_container', subject: C, memoryMb: 1800, priority: 0 });
  });

  it('reads container ends from every class that prints them', () => {
    expect(event('FSAppAttempt', `Completed container: ${C} in state: KILLED event:KILL`)).toMatchObject({ kind: 'container_completed', toState: 'KILLED', detail: 'KILL' });
    expect(event('CapacityScheduler', `Application attempt appattempt_1700000000000_0007_000001 released container ${C} on node: host: w7:4242 #containers=1 available=6144 used=2048 with event: FINISHED`)).toMatchObject({ kind: 'container_released', nodeId: 'w7:4242', toState: 'FINISHED' });
    expect(event('FiCaSchedulerNode', `Released container ${C} of capacity <memory:3072, vCores:2> on host w7:4242, which currently has 0 containers, <memory:0, vCores:0> used and <memory:16384, vCores:12> available, release resources=true`)).toMatchObject({ kind: 'container_released', memoryMb: 3072 });
    expect(event('AbstractYarnScheduler', `Container ${C} completed with event FINISHED, but corresponding RMContainer doesn't exist.`)).toMatchObject({ kind: 'container_unknown', subject: C, detail: 'FINISHED' });
    expect(event('CapacityScheduler', 'Null container completed...')).toMatchObject({ kind: 'container_unknown' });
  });

  it("reads the AM's ask for a priority running out, and ignores the other AppSchedulingInfo lines", () => {
    const app = 'application_1700000000000_0007';
    expect(event('AppSchedulingInfo', `checking for deactivate of application :${app}`)).toEqual({ kind: 'ask_drained', lineNumber: 12, timeMs: 5000, subject: app });
    expect(parse('AppSchedulingInfo', 'checking for deactivate of application :application_17')).toEqual({ reject: 'unreadable checking-for-deactivate line' });
    expect(parse('AppSchedulingInfo', `Application ${app} requests cleared`)).toBeNull();
  });

  it('reads audit lines with tabs, and with the runs of spaces of pasted logs', () => {
    const tabs = ['USER=ann', 'IP=10.0.0.9', 'OPERATION=AM Allocated Container', 'TARGET=SchedulerApp', 'RESULT=SUCCESS', 'APPID=application_1700000000000_0007', `CONTAINERID=${C}`, 'RESOURCE=<memory:3072, vCores:2>', 'QUEUENAME=etl'].join('\t');
    expect(event('RMAuditLogger', tabs)).toMatchObject({ kind: 'audit', subject: C, user: 'ann', detail: 'AM Allocated Container', toState: 'SUCCESS', memoryMb: 3072, queue: 'etl' });
    expect(event('RMAuditLogger', 'USER=ann  IP=10.0.0.9  OPERATION=Submit Application Request  TARGET=ClientRMService  RESULT=SUCCESS  APPID=application_1700000000000_0007')).toMatchObject({ subject: 'application_1700000000000_0007', detail: 'Submit Application Request' });
  });

  it('reads the application summary of any version, with its escapes', () => {
    const e = event('RMAppManager$ApplicationSummary', 'appId=application_1700000000000_0007,name=load a\\,b\\=c (x),user=ann, queue=root.etl,state=FINISHED,trackingUrl=http://rm:8088/,appMasterHost=w7,submitTime=1,startTime=2,launchTime=3,finishTime=99,finalStatus=SUCCEEDED,preemptedResources=<memory:0\\, vCores:0>,diagnostics=a\\nb');
    expect(e).toMatchObject({ kind: 'app_summary', subject: 'application_1700000000000_0007', user: 'ann', queue: 'root.etl', toState: 'FINISHED', detail: 'SUCCEEDED' });
    expect(JSON.parse(e.extra!)).toMatchObject({ name: 'load a,b=c (x)', preemptedResources: '<memory:0, vCores:0>', diagnostics: 'a\nb', finishTime: '99' });
    expect(parseSummary('a=1,b=x\\\\,c=\\\\\\,d')).toEqual({ a: '1', b: 'x\\', c: '\\,d' });
  });

  it('rejects a line of interest it cannot read, and ignores other lines of the same classes', () => {
    expect(parse('SchedulerNode', `Assigned container ${C} of capacity <memory:30`)).toEqual({ reject: 'unreadable Assigned container line' });
    expect(parse('RMContainerImpl', 'container_x Container Transitioned from NEW to ALLOCATED')).toEqual({ reject: 'unreadable Container Transitioned line' });
    expect(parse('RMAppManager$ApplicationSummary', 'appId=application_1700000000000_0007,name=cut off')).toEqual({ reject: 'unreadable ApplicationSummary line' });
    expect(parse('CapacityScheduler', 'Re-initializing queues...')).toBeNull();
    expect(parse('RMAppImpl', 'Storing application with id application_1700000000000_0007')).toBeNull();
  });

  it('reads the banner and the queue block from continuation lines', () => {
    expect(bannerEvent(['/*****', 'STARTUP_MSG: Starting ResourceManager', 'STARTUP_MSG:   version = 3.3.6'], { ...AT, logger: 'ResourceManager' })).toMatchObject({ kind: 'rm_started', detail: '3.3.6' });
    expect(bannerEvent(['SHUTDOWN_MSG: Shutting down ResourceManager at rm/10.0.0.1'], { ...AT, logger: 'ResourceManager' })).toMatchObject({ kind: 'rm_stopped' });
    expect(JSON.parse(queueConfigFrom(['capacity = 0.5 [= (float) configuredCapacity / 100 ]', 'maxAMResourcePerQueuePercent = 0.2 [= configuredMaximumAMResourcePercent ]', 'state = RUNNING']))).toEqual({ capacity: '0.5', maxAMResourcePerQueuePercent: '0.2', state: 'RUNNING' });
  });
});
