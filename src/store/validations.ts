// Validations (`validate`: a replayed what-if checked against the log recorded under the change):
// one row in `validations`, one per matched app in `validation_apps`, saved in one transaction.

import { DuckDBTimestampValue } from '@duckdb/node-api';
import type { Store } from './store.js';

/** One validation as `validations` holds it (schema version 12 has each column's meaning). */
export interface ValidationRow {
  readonly trace: string;
  readonly changedTrace: string;
  readonly traceSha256: string;
  readonly changedTraceSha256: string;
  readonly changeJson: string;
  readonly baseRunId: number;
  readonly predictedRunId: number;
  readonly changeThresholdMs: number;
  readonly toleranceMs: number;
  readonly toleranceShare: number;
  readonly apps: number;
  readonly appsChanged: number;
  readonly appsChangedPredicted: number;
  readonly predictedShare: number | null;
  readonly unchangedPredictedToChange: number;
  readonly meanAbsErrorPct: number | null;
  readonly worstErrorPct: number | null;
  readonly recordedBaseMakespanMs: number | null;
  readonly recordedChangedMakespanMs: number | null;
  readonly replayedBaseMakespanMs: number | null;
  readonly predictedMakespanMs: number | null;
  readonly createdAt: Date;
  readonly rmreplayVersion: string;
}

/** How one matched app's real change and predicted change compare (api/validate-compare.ts says how). */
export interface ValidationJudgement {
  /** Changed log - base log (ms); null unless both logs ended the app, in the same state. */
  readonly realChangeMs: number | null;
  /** Replayed under the change - replayed as configured (ms); null unless both replays ended it, in the same state. */
  readonly predictedChangeMs: number | null;
  /** Predicted - real change (ms). */
  readonly changeErrorMs: number | null;
  /**
   * (replayed under the change - changed log) / changed log, in percent: the prediction's own
   * turnaround against the one recorded; null unless both ended the app in the same state, or
   * against a recorded zero.
   */
  readonly turnaroundErrorPct: number | null;
  /** |real change| above the change threshold; null without a real change. */
  readonly reallyChanged: boolean | null;
  /** For an app that really changed: the predicted change is within tolerance of it. */
  readonly predictedWithin: boolean | null;
}

/** One matched app as `validation_apps` holds it. */
export interface ValidationAppRow extends ValidationJudgement {
  readonly appIndex: number;
  readonly baseAppId: string;
  readonly changedAppId: string;
  readonly user: string;
  readonly queue: string;
  readonly recordedBaseState: string | null;
  readonly recordedChangedState: string | null;
  readonly replayedBaseState: string;
  readonly predictedState: string;
  readonly recordedBaseTurnaroundMs: number | null;
  readonly recordedChangedTurnaroundMs: number | null;
  readonly replayedBaseTurnaroundMs: number | null;
  readonly predictedTurnaroundMs: number | null;
}

/** Save a validation and its apps; returns its id. */
export async function saveValidation(store: Store, validation: ValidationRow, apps: readonly ValidationAppRow[]): Promise<number> {
  return store.transaction(async () => {
    const { rows } = await store.query(`SELECT nextval('validation_id_seq')`);
    const validationId = Number(rows[0]![0]);
    const v = validation;
    await store.run(
      `INSERT INTO validations VALUES ($id, $trace, $changedTrace, $traceSha256, $changedTraceSha256, $changeJson,
         $baseRunId, $predictedRunId, $changeThresholdMs, $toleranceMs, $toleranceShare, $apps, $appsChanged,
         $appsChangedPredicted, $predictedShare, $unchangedPredictedToChange, $meanAbsErrorPct, $worstErrorPct,
         $recordedBaseMakespanMs, $recordedChangedMakespanMs, $replayedBaseMakespanMs, $predictedMakespanMs,
         $createdAt, $rmreplayVersion)`,
      {
        id: validationId,
        trace: v.trace,
        changedTrace: v.changedTrace,
        traceSha256: v.traceSha256,
        changedTraceSha256: v.changedTraceSha256,
        changeJson: v.changeJson,
        baseRunId: v.baseRunId,
        predictedRunId: v.predictedRunId,
        changeThresholdMs: v.changeThresholdMs,
        toleranceMs: v.toleranceMs,
        toleranceShare: v.toleranceShare,
        apps: v.apps,
        appsChanged: v.appsChanged,
        appsChangedPredicted: v.appsChangedPredicted,
        predictedShare: v.predictedShare,
        unchangedPredictedToChange: v.unchangedPredictedToChange,
        meanAbsErrorPct: v.meanAbsErrorPct,
        worstErrorPct: v.worstErrorPct,
        recordedBaseMakespanMs: v.recordedBaseMakespanMs,
        recordedChangedMakespanMs: v.recordedChangedMakespanMs,
        replayedBaseMakespanMs: v.replayedBaseMakespanMs,
        predictedMakespanMs: v.predictedMakespanMs,
        createdAt: new DuckDBTimestampValue(BigInt(v.createdAt.getTime()) * 1000n),
        rmreplayVersion: v.rmreplayVersion,
      },
    );
    await store.append('validation_apps', (a) => {
      const bigint = (value: number | null): void => (value === null ? a.appendNull() : a.appendBigInt(BigInt(Math.round(value))));
      const varchar = (value: string | null): void => (value === null ? a.appendNull() : a.appendVarchar(value));
      const double = (value: number | null): void => (value === null ? a.appendNull() : a.appendDouble(value));
      const boolean = (value: boolean | null): void => (value === null ? a.appendNull() : a.appendBoolean(value));
      for (const app of apps) {
        a.appendInteger(validationId);
        a.appendInteger(app.appIndex);
        a.appendVarchar(app.baseAppId);
        a.appendVarchar(app.changedAppId);
        a.appendVarchar(app.user);
        a.appendVarchar(app.queue);
        varchar(app.recordedBaseState);
        varchar(app.recordedChangedState);
        a.appendVarchar(app.replayedBaseState);
        a.appendVarchar(app.predictedState);
        bigint(app.recordedBaseTurnaroundMs);
        bigint(app.recordedChangedTurnaroundMs);
        bigint(app.replayedBaseTurnaroundMs);
        bigint(app.predictedTurnaroundMs);
        bigint(app.realChangeMs);
        bigint(app.predictedChangeMs);
        bigint(app.changeErrorMs);
        double(app.turnaroundErrorPct);
        boolean(app.reallyChanged);
        boolean(app.predictedWithin);
        a.endRow();
      }
    });
    return validationId;
  });
}
