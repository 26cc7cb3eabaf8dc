// SWIM submit times are seconds from the trace's start (the first job is usually at a few
// seconds). Two kinds of file break that, and a replay of either runs its clock and its samples
// from 0 to the absurd time until memory runs out:
//   - Unix epoch seconds (a trace exported from a job history): the first job's time, if it is
//     a date from 2000 to 2100, becomes the trace's start and every time is counted from it,
//     with a warning; a later job before it is rejected (SWIM files are in submission order);
//   - a time beyond any trace (1e30, epoch milliseconds, a typo): a job more than
//     MAX_TRACE_SPAN_S after the trace's start is rejected, with its reason.

/** The longest a SWIM trace may run: a year and a day. The published days run 86 400 s. */
export const MAX_TRACE_SPAN_S = 366 * 86_400;

/** 2000-01-01T00:00:00Z and 2100-01-01T00:00:00Z in Unix epoch seconds. */
const EPOCH_FROM_S = 946_684_800;
const EPOCH_TO_S = 4_102_444_800;

export type PlacedSubmit = { readonly submitS: number } | { readonly reason: string };

/** Decides each job's submit time, in file order, from the trace's start. */
export class SubmitTimes {
  /** The file's time of the trace's start: 0, or the first job's epoch seconds. */
  private originS: number | null = null;
  private firstLine = 0;
  readonly warnings: string[] = [];

  place(submitS: number, lineNumber: number): PlacedSubmit {
    if (this.originS === null) {
      this.firstLine = lineNumber;
      this.originS = submitS >= EPOCH_FROM_S && submitS < EPOCH_TO_S ? submitS : 0;
      if (this.originS > 0) {
        this.warnings.push(
          `submit times look like Unix epoch seconds (line ${lineNumber}: ${new Date(submitS * 1000).toISOString()}); ` +
            'they are counted from that first job, which is at 0 s',
        );
      }
    }
    const fromStartS = submitS - this.originS;
    if (fromStartS < 0) {
      return { reason: `submit time ${submitS} s is before the first job's (line ${this.firstLine}), from which epoch times are counted` };
    }
    if (fromStartS > MAX_TRACE_SPAN_S) {
      const epochMs = submitS >= EPOCH_FROM_S * 1000 && submitS < EPOCH_TO_S * 1000;
      return {
        reason:
          `submit time ${submitS} s is more than ${MAX_TRACE_SPAN_S / 86_400} days after the trace's start` +
          (epochMs ? ' (it looks like Unix epoch milliseconds; SWIM times are seconds)' : ''),
      };
    }
    return { submitS: fromStartS };
  }
}
