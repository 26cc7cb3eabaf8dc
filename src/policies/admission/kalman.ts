// A one-dimensional Kalman filter, as MARP's controller smooths the cluster's memory utilisation
// with it: the state is the utilisation itself, carried over unchanged from step to step
// (transition 1) with process noise Q, and each step measures it with measurement noise R.
//   predict:  P' = P + Q
//   correct:  K = P' / (P' + R);  x = x + K (z - x);  P = (1 - K) P'
// The first measurement is taken as it is, with the measurement's own variance.

export class ScalarKalmanFilter {
  private estimate = NaN;
  private variance = NaN;

  constructor(
    readonly processNoise: number,
    readonly measurementNoise: number,
  ) {}

  /** The filtered value (NaN before the first measurement). */
  get value(): number {
    return this.estimate;
  }

  /** Take a measurement; returns the filtered value. */
  update(measured: number): number {
    if (Number.isNaN(this.estimate)) {
      this.estimate = measured;
      this.variance = this.measurementNoise;
      return measured;
    }
    const predicted = this.variance + this.processNoise;
    const gain = predicted / (predicted + this.measurementNoise);
    this.estimate += gain * (measured - this.estimate);
    this.variance = (1 - gain) * predicted;
    return this.estimate;
  }
}
