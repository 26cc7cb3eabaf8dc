// What the command line needs of the layers below besides the API's calls: the errors it turns
// into exit statuses, the rules and usage texts of its options, and the table formatter it prints
// with. The CLI imports from api/ only (eslint.config.js enforces it); this is its door to the rest.

export { BIN_NAME, commandLine, shellQuote } from '../model/command-line.js';
export { CapacityModeError, capacityModeUsage, parseCapacityMode } from '../model/capacity-mode.js';
export { LostDependency, PartialFailure, UserError } from '../model/errors.js';
export { APP_TIMEOUT, durationProblem, HORIZON, MIN_SAMPLE_INTERVAL_MS, SAMPLE_INTERVAL, secondsToMs } from '../model/run-durations.js';
export { SWIM_BYTES } from '../model/run-spec.js';
export { CONTENTION_CHOICES, DEFAULT_CONTENTION } from '../model/contention.js';
export { MAX_NODE_COUNT } from '../model/scale-nodes.js';
export { admissionPolicyUsage } from '../policies/admission/index.js';
export { schedulingPolicyUsage } from '../policies/scheduling/index.js';
export { DEFAULT_TABLE_WIDTH, formatTable, reportNames, wrapText } from '../reports/index.js';
export { parameterRange, SCENARIOS } from '../scenarios/index.js';
