// Errors a user can fix (bad file, bad spec, unknown name). The CLI prints their message alone,
// with no stack trace, and exits with the usage/input status.

export class UserError extends Error {
  override readonly name: string = 'UserError';
}

/**
 * Work that ran but did not all succeed (some replays of a sweep threw): what did succeed is
 * stored and reported; the CLI prints the message alone and exits with the failure status.
 */
export class PartialFailure extends Error {
  override readonly name: string = 'PartialFailure';
}

/**
 * What a command depends on went away for good (a worker's queue): the CLI prints the message
 * alone and exits with its own status, so that whatever restarts workers can tell it apart.
 */
export class LostDependency extends Error {
  override readonly name: string = 'LostDependency';
}
