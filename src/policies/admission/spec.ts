// Admission policies chosen by a spec string (`none`, `max-apps:4`, `reserve:8`, `am-share:0.1`)
// and sweeps over one (`reserve:0..64:8`). An unknown name is answered with the valid ones.

import { UserError } from '../../model/errors.js';
import { amShare, DEFAULT_AM_SHARE } from './am-share.js';
import { asConfigured, AS_CONFIGURED_SPEC } from './as-configured.js';
import { maxApps } from './max-apps.js';
import { noAdmissionControl } from './none.js';
import { staticReservation } from './reserve.js';
import type { Reservation } from './reserve.js';
import type { AdmissionPolicy } from './types.js';

/** A user error in a policy spec; the message says what is valid. */
export class PolicySpecError extends UserError {
  override readonly name: string = 'PolicySpecError';
}

interface PolicyKind {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  create(argument: string | undefined, spec: string): AdmissionPolicy;
}

const KINDS: readonly PolicyKind[] = [
  {
    name: AS_CONFIGURED_SPEC,
    usage: AS_CONFIGURED_SPEC,
    summary: "the scheduler's own AM limits as configured (default)",
    create: (argument, spec) => {
      if (argument !== undefined) throw new PolicySpecError(`'${spec}': ${AS_CONFIGURED_SPEC} takes no argument`);
      return asConfigured();
    },
  },
  {
    name: 'none',
    usage: 'none',
    summary: 'admit every app on submission, AM limits lifted',
    create: (argument, spec) => {
      if (argument !== undefined) throw new PolicySpecError(`'${spec}': none takes no argument`);
      return noAdmissionControl();
    },
  },
  {
    name: 'max-apps',
    usage: 'max-apps:N',
    summary: 'at most N apps admitted at a time (N >= 1), replacing AM limits',
    create: (argument, spec) => {
      const limit = parseNumber(argument, spec, 'N');
      if (!Number.isInteger(limit) || limit < 1) {
        throw new PolicySpecError(`'${spec}': N must be a whole number of at least 1`);
      }
      return maxApps(limit);
    },
  },
  {
    name: 'reserve',
    usage: 'reserve:R  (R in vcores, e.g. 8; or 8vcores, 4096mb, 4gb, 12.5%)',
    summary: 'AutoAdmin static reservation: admit only if R stays free for tasks after the AM, replacing AM limits',
    create: (argument, spec) => staticReservation(parseReservation(argument, spec)),
  },
  {
    name: 'am-share',
    usage: `am-share:P  (0 < P <= 1; default ${DEFAULT_AM_SHARE})`,
    summary: "every queue's AM limit (maximum-am-resource-percent, maxAMShare) set to P",
    create: (argument, spec) => {
      const share = argument === undefined ? DEFAULT_AM_SHARE : parseNumber(argument, spec, 'P');
      if (!(share > 0 && share <= 1)) throw new PolicySpecError(`'${spec}': P must be in (0, 1]`);
      return amShare(share);
    },
  },
];

export function admissionPolicyUsage(): string {
  return KINDS.map((kind) => `  ${kind.usage.padEnd(28)} ${kind.summary}`).join('\n');
}

export function parseAdmissionPolicy(spec: string): AdmissionPolicy {
  const trimmed = spec.trim();
  const colon = trimmed.indexOf(':');
  const name = colon < 0 ? trimmed : trimmed.slice(0, colon);
  const argument = colon < 0 ? undefined : trimmed.slice(colon + 1);
  const kind = KINDS.find((k) => k.name === name);
  if (!kind) {
    throw new PolicySpecError(`unknown admission policy '${name}'; valid policies are:\n${admissionPolicyUsage()}`);
  }
  return kind.create(argument, trimmed);
}

const SWEEP = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?):(\d+(?:\.\d+)?)([a-z%]*)$/i;
const MAX_SWEEP_POINTS = 1000;

/**
 * Expand a sweep `name:FROM..TO:STEP[unit]` into one spec per point, FROM and TO included
 * (`reserve:0..64:8` is nine specs; `reserve:0..50:10%` six). A spec that is not a sweep is
 * returned alone. Every expanded spec is validated.
 */
export function expandPolicySpecs(spec: string): string[] {
  const trimmed = spec.trim();
  const colon = trimmed.indexOf(':');
  const match = colon < 0 ? null : SWEEP.exec(trimmed.slice(colon + 1));
  if (!match) {
    parseAdmissionPolicy(trimmed);
    return [trimmed];
  }
  const name = trimmed.slice(0, colon);
  const [, fromText, toText, stepText, unit] = match as unknown as [string, string, string, string, string];
  const from = Number(fromText);
  const to = Number(toText);
  const step = Number(stepText);
  if (!(step > 0) || to < from) {
    throw new PolicySpecError(`'${trimmed}': a sweep needs FROM <= TO and STEP > 0`);
  }
  const points = Math.floor((to - from) / step + 1e-9) + 1;
  if (points > MAX_SWEEP_POINTS) {
    throw new PolicySpecError(`'${trimmed}': ${points} points; at most ${MAX_SWEEP_POINTS} in one sweep`);
  }
  // Round each point to the inputs' decimals so 0.1 + 0.2 prints as 0.3.
  const decimals = Math.max(...[fromText, toText, stepText].map((t) => (t.split('.')[1] ?? '').length));
  const specs: string[] = [];
  for (let i = 0; i < points; i++) {
    const value = Number((from + i * step).toFixed(decimals));
    const pointSpec = `${name}:${value}${unit}`;
    parseAdmissionPolicy(pointSpec);
    specs.push(pointSpec);
  }
  return specs;
}

function parseNumber(argument: string | undefined, spec: string, what: string): number {
  if (argument === undefined || argument.trim() === '') {
    throw new PolicySpecError(`'${spec}': missing ${what}`);
  }
  const value = Number(argument);
  if (!Number.isFinite(value)) throw new PolicySpecError(`'${spec}': ${what} must be a number, got '${argument}'`);
  return value;
}

const RESERVATION = /^(\d+(?:\.\d+)?)\s*(vcores|vcore|vc|mb|gb|%)?$/i;

function parseReservation(argument: string | undefined, spec: string): Reservation {
  const match = argument === undefined ? null : RESERVATION.exec(argument.trim());
  if (!match) {
    throw new PolicySpecError(`'${spec}': R must be a number of vcores, or end in vcores, mb, gb or %`);
  }
  const amount = Number(match[1]);
  const unit = (match[2] ?? 'vcores').toLowerCase();
  if (unit === 'mb') return { unit: 'mb', amount };
  if (unit === 'gb') return { unit: 'mb', amount: amount * 1024 };
  if (unit === '%') {
    if (amount > 100) throw new PolicySpecError(`'${spec}': a percentage cannot exceed 100`);
    return { unit: 'percent', amount };
  }
  return { unit: 'vcores', amount };
}
