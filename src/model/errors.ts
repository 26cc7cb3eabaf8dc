// Errors a user can fix (bad file, bad spec, unknown name). The CLI prints their message alone,
// with no stack trace, and exits with the usage/input status.

export class UserError extends Error {
  override readonly name: string = 'UserError';
}
