// Admission policies chosen by a spec string (`none`, `max-apps:4`, `reserve:8`, `am-share:0.1`,
// `autoadmin:floor=0.4`, `marp-feedback:delay=10`) and sweeps over one (`reserve:0..64:8`). An
// unknown name or parameter is answered with the valid ones.

import { UserError } from '../../model/errors.js';
import { durationProblem } from '../../model/run-durations.js';
import type { DurationRule } from '../../model/run-durations.js';
import { amShare, DEFAULT_AM_SHARE } from './am-share.js';
import { asConfigured, AS_CONFIGURED_SPEC } from './as-configured.js';
import { autoAdmin, DEFAULT_AUTOADMIN_FLOOR } from './autoadmin.js';
import { DEFAULT_MARP_SETTINGS, MARP_KEYS, marpFeedback } from './marp-feedback.js';
import type { MarpSettings } from './marp-feedback.js';
import { DEFAULT_LOOKAHEAD_SETTINGS, LOOKAHEAD_FAMILIES, LOOKAHEAD_KEYS, lookahead } from './lookahead.js';
import type { LookaheadFamily, LookaheadSettings } from './lookahead.js';
import { maxApps } from './max-apps.js';
import { noAdmissionControl } from './none.js';
import { DEFAULT_RESERVATION_READING, isReservationReading, RESERVATION_READINGS } from './reservation-reading.js';
import type { ReservationReading } from './reservation-reading.js';
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
  /** More lines for --help, below the summary. */
  readonly details?: string;
  create(argument: string | undefined, spec: string): AdmissionPolicy;
}

const READING_DETAILS =
  `reading (default ${DEFAULT_RESERVATION_READING}): am-cap admits while AMs + this AM <= C - R; free admits while\n` +
  'C - every allocated container - this AM >= R (R kept free for tasks)';

/**
 * Splits `reading=W` off a policy's argument (anywhere in its comma-separated list); the rest
 * goes to the policy's own parser, undefined when nothing is left.
 */
function takeReading(argument: string | undefined, spec: string): { rest: string | undefined; reading: ReservationReading } {
  if (argument === undefined) return { rest: undefined, reading: DEFAULT_RESERVATION_READING };
  const parts = argument.split(',');
  const readingParts = parts.filter((p) => p.trim().startsWith('reading='));
  if (readingParts.length > 1) throw new PolicySpecError(`'${spec}': parameter 'reading' is given twice`);
  const others = parts.filter((p) => !p.trim().startsWith('reading='));
  const rest = others.length === 0 ? undefined : others.join(',');
  if (readingParts.length === 0) return { rest, reading: DEFAULT_RESERVATION_READING };
  const name = readingParts[0]!.trim().slice('reading='.length);
  if (!isReservationReading(name)) {
    throw new PolicySpecError(`'${spec}': reading must be one of ${RESERVATION_READINGS.join(', ')}, got '${name}'`);
  }
  return { rest, reading: name };
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
    usage: 'reserve:R[,reading=W]  (R in vcores, e.g. 8; or 8vcores, 4096mb, 4gb, 12.5%)',
    summary: 'AutoAdmin static reservation: admit only while AMs leave R to tasks, replacing AM limits',
    details: READING_DETAILS,
    create: (argument, spec) => {
      const { rest, reading } = takeReading(argument, spec);
      return staticReservation(parseReservation(rest, spec), reading);
    },
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
  {
    name: 'autoadmin',
    usage: `autoadmin[:floor=F,reading=W]  (0 < F < 1; default ${DEFAULT_AUTOADMIN_FLOOR})`,
    summary: 'AutoAdmin: keep a predicted reservation (at least F of the cluster) away from AMs, replacing AM limits',
    details: READING_DETAILS,
    create: (argument, spec) => {
      const { rest, reading } = takeReading(argument, spec);
      const { floor } = parseSettings(rest, spec, { floor: 'floor' }, { floor: DEFAULT_AUTOADMIN_FLOOR });
      if (!(floor > 0 && floor < 1)) throw new PolicySpecError(`'${spec}': floor must be in (0, 1), got ${floor}`);
      return autoAdmin(floor, reading);
    },
  },
  {
    name: 'marp-feedback',
    usage: 'marp-feedback[:KEY=V,...]',
    summary: 'MARP self-balancing: every delay s, move every AM limit by memory utilisation',
    details:
      'keys (defaults): delay (10 s, at least 1 s, whole ms), low (0.9), high (0.95), min (0.05), max (1), start (0.1),\n' +
      'q (0.001) and r (0.01), the Kalman filter\'s process and measurement noise, scale (1024 MB): the memory unit\n' +
      'the step\'s square root is taken in (the cluster\'s memory gives sqrt(low - u) with u a fraction)',
    create: (argument, spec) => marpFeedback(checkMarpSettings(parseSettings(argument, spec, MARP_KEYS, DEFAULT_MARP_SETTINGS), spec)),
  },
  {
    name: 'lookahead',
    usage: 'lookahead[:KEY=V,...]',
    summary: 'every step s, replay the next horizon s from now under each level; keep the best (arrivals drawn, not read)',
    details:
      'keys (defaults): horizon (120 s), step (5 s, at least 1 s), levels (16), start (0.5), seed (1), family (reserve:\n' +
      "R = i/levels of the cluster, i = 0..levels-1, kept away from AMs; am-share: every queue's AM limit (i+1)/levels),\n" +
      `reading (reserve only, default ${DEFAULT_RESERVATION_READING}). Best: least time in the system up to the horizon, then most apps ended`,
    create: (argument, spec) => {
      const { rest: withoutFamily, family } = takeFamily(argument, spec);
      const { rest, reading } = takeReading(withoutFamily, spec);
      const settings = checkLookaheadSettings(parseSettings(rest, spec, LOOKAHEAD_KEYS, DEFAULT_LOOKAHEAD_SETTINGS), spec);
      return lookahead(settings, family, reading);
    },
  },
];

/** Splits `family=F` off lookahead's argument, as takeReading splits `reading=W`. */
function takeFamily(argument: string | undefined, spec: string): { rest: string | undefined; family: LookaheadFamily } {
  if (argument === undefined) return { rest: undefined, family: 'reserve' };
  const parts = argument.split(',');
  const familyParts = parts.filter((p) => p.trim().startsWith('family='));
  if (familyParts.length > 1) throw new PolicySpecError(`'${spec}': parameter 'family' is given twice`);
  const others = parts.filter((p) => !p.trim().startsWith('family='));
  const rest = others.length === 0 ? undefined : others.join(',');
  if (familyParts.length === 0) return { rest, family: 'reserve' };
  const name = familyParts[0]!.trim().slice('family='.length);
  const family = LOOKAHEAD_FAMILIES.find((f) => f === name);
  if (family === undefined) throw new PolicySpecError(`'${spec}': family must be one of ${LOOKAHEAD_FAMILIES.join(', ')}, got '${name}'`);
  return { rest, family };
}

/** A forecast per level per step, each a replay up to the horizon: bounds keep a run's cost sane. */
const LOOKAHEAD_STEP: DurationRule = { option: 'step', minMs: 1000 };
const MAX_LOOKAHEAD_LEVELS = 64;

function checkLookaheadSettings(settings: LookaheadSettings, spec: string): LookaheadSettings {
  const { horizonS, stepS, levels, start, seed } = settings;
  const fail = (what: string): never => {
    throw new PolicySpecError(`'${spec}': ${what}`);
  };
  const stepProblem = durationProblem(stepS, LOOKAHEAD_STEP);
  if (stepProblem !== null) fail(`step ${stepS} s: ${stepProblem}`);
  if (!(horizonS >= stepS && Number.isInteger(horizonS * 1000))) fail(`horizon must be a whole number of ms, at least the step, got ${horizonS} s`);
  if (!(Number.isInteger(levels) && levels >= 2 && levels <= MAX_LOOKAHEAD_LEVELS)) fail(`levels must be a whole number in [2, ${MAX_LOOKAHEAD_LEVELS}], got ${levels}`);
  if (!(start >= 0 && start <= 1)) fail(`start must lie in [0, 1], got ${start}`);
  if (!(Number.isInteger(seed) && seed >= 0)) fail(`seed must be a whole number, got ${seed}`);
  return settings;
}

export function admissionPolicyUsage(): string {
  return KINDS.map((kind) => {
    const line = `  ${kind.usage.padEnd(28)} ${kind.summary}`;
    const details = kind.details?.split('\n').map((d) => `  ${''.padEnd(28)}   ${d}`) ?? [];
    return [line, ...details].join('\n');
  }).join('\n');
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

/**
 * `key=value,key=value` into numbers, over defaults. `keys` maps each setting to the name the
 * spec uses; an unknown name, a repeated one or a value that is not a number is refused with
 * the valid names.
 */
function parseSettings<K extends string>(
  argument: string | undefined,
  spec: string,
  keys: Readonly<Record<K, string>>,
  defaults: Readonly<Record<K, number>>,
): Record<K, number> {
  const settings = { ...defaults } as Record<K, number>;
  if (argument === undefined) return settings;
  const byName = new Map((Object.keys(keys) as K[]).map((key) => [keys[key], key]));
  const valid = [...byName.keys()].join(', ');
  const seen = new Set<string>();
  for (const part of argument.split(',')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    const key = byName.get(name);
    if (key === undefined) {
      throw new PolicySpecError(`'${spec}': unknown parameter '${name}'; valid parameters are ${valid}`);
    }
    if (seen.has(name)) throw new PolicySpecError(`'${spec}': parameter '${name}' is given twice`);
    seen.add(name);
    settings[key] = parseNumber(eq < 0 ? undefined : part.slice(eq + 1), spec, name);
  }
  return settings;
}

/**
 * The controller's step: a step every millisecond over a day's trace would be tens of millions
 * of events, each a possible row of run_controller_steps; the paper's is 10 s.
 */
const MARP_DELAY: DurationRule = { option: 'delay', minMs: 1000 };

function checkMarpSettings(settings: MarpSettings, spec: string): MarpSettings {
  const { delayS, low, high, min, max, start, processNoise, measurementNoise, scaleMb } = settings;
  const fail = (what: string): never => {
    throw new PolicySpecError(`'${spec}': ${what}`);
  };
  const delayProblem = durationProblem(delayS, MARP_DELAY);
  if (delayProblem !== null) fail(`delay ${delayS} s: ${delayProblem}`);
  if (!(low > 0 && low < high && high <= 1)) fail(`thresholds must satisfy 0 < low < high <= 1, got low=${low}, high=${high}`);
  if (!(min > 0 && min <= max && max <= 1)) fail(`bounds must satisfy 0 < min <= max <= 1, got min=${min}, max=${max}`);
  if (!(start >= min && start <= max)) fail(`start must lie in [min, max] = [${min}, ${max}], got ${start}`);
  if (!(processNoise > 0 && measurementNoise > 0)) fail(`the noise variances q and r must be positive, got q=${processNoise}, r=${measurementNoise}`);
  if (!(scaleMb > 0)) fail(`scale must be a positive number of MB, got ${scaleMb}`);
  return settings;
}

const SWEEP = /^(-?\d+(?:\.\d+)?)\.\.(-?\d+(?:\.\d+)?):(\d+(?:\.\d+)?)([a-z%]*)((?:,[^,]+)*)$/i;
const MAX_SWEEP_POINTS = 1000;

/**
 * Expand a sweep `name:FROM..TO:STEP[unit]` into one spec per point, FROM and TO included
 * (`reserve:0..64:8` is nine specs; `reserve:0..50:10%` six); settings after it go to every point
 * (`reserve:0..64:8,reading=free`). A spec that is not a sweep is
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
  const [, fromText, toText, stepText, unit, settings] = match as unknown as [string, string, string, string, string, string];
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
    const pointSpec = `${name}:${value}${unit}${settings}`;
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
