export type { AdmissionCandidate, AdmissionDecision, AdmissionPolicy, AdmissionView } from './types.js';
export { noAdmissionControl } from './none.js';
export { maxApps } from './max-apps.js';
export { staticReservation } from './reserve.js';
export type { Reservation } from './reserve.js';
export { amShare, DEFAULT_AM_SHARE } from './am-share.js';
export { asConfigured, AS_CONFIGURED_SPEC } from './as-configured.js';
export { admissionPolicyUsage, expandPolicySpecs, parseAdmissionPolicy, PolicySpecError } from './spec.js';
