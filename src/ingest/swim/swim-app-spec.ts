// A SWIM job as a replay's app, in as few bytes as it can be: a replay holds every app's spec
// for the whole run, and what a SWIM job's spec says beyond its id, submission time and stages
// is the same for every job of a trace on one cluster. So those are read through the prototype
// (the AM's request and times from one object the jobs share), and the name is made when asked
// for: about 56 bytes an app instead of about 150 (a plain object of twelve fields and a name
// string of its own). On the million-app day the specs are most of what stays live through the
// replay, and V8 lets its heap grow in proportion to what stays live (issue 25).

import type { AppSpec, AppType, Stage } from '../../model/workload.js';
import type { Resources } from '../../model/resources.js';

/** What every SWIM job of a trace replayed on one cluster asks for the same way. */
export interface SwimAmCommon {
  readonly amRequest: Resources;
  readonly amStartupMs: number;
}

export class SwimAppSpec implements AppSpec {
  constructor(
    readonly id: string,
    readonly submitMs: number,
    readonly stages: readonly Stage[],
    private readonly common: SwimAmCommon,
  ) {}

  get name(): string {
    return `swim ${this.id}`;
  }
  get type(): AppType {
    return 'mapreduce';
  }
  get applicationType(): string {
    return 'MAPREDUCE';
  }
  get observed(): boolean {
    return false;
  }
  get queue(): string {
    return 'default';
  }
  get user(): string {
    return 'swim';
  }
  get amRequest(): Resources {
    return this.common.amRequest;
  }
  get amStartupMs(): number {
    return this.common.amStartupMs;
  }
  get amTeardownMs(): number {
    return 0;
  }

  /**
   * The fields a plain spec has, in its order: a workload written for sweep workers
   * (queue/workload-file.ts) and hashed is the same as before, and read back as plain objects.
   */
  toJSON(): AppSpec {
    return {
      id: this.id,
      name: this.name,
      type: this.type,
      applicationType: this.applicationType,
      observed: this.observed,
      queue: this.queue,
      user: this.user,
      submitMs: this.submitMs,
      amRequest: this.amRequest,
      amStartupMs: this.amStartupMs,
      amTeardownMs: this.amTeardownMs,
      stages: this.stages,
    };
  }
}
