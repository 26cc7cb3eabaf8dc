export type { SchedulingPolicy } from './types.js';
export { capacityFifo } from './capacity-fifo.js';
