// A command line a user can paste: arguments quoted for a POSIX shell, placeholders the user
// fills in printed as they are. Below the CLI, so that the API's texts (a report's hint) name
// commands the same way the CLI's hints do.

/** The command's name, as a hint prints it where no CLI says how the user runs it. */
export const BIN_NAME = 'rmreplay';

/** An argument as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellQuote(argument: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(argument)) return argument;
  return `'${argument.replaceAll("'", `'\\''`)}'`;
}

/** A placeholder the user fills in (`<cluster file>`), printed as it is. */
export interface Placeholder {
  readonly placeholder: string;
}

/** A command line to print: how rmreplay was invoked, then the arguments, each quoted as needed. */
export function commandLine(invocation: string, args: readonly (string | Placeholder)[]): string {
  return [invocation, ...args.map((arg) => (typeof arg === 'string' ? shellQuote(arg) : arg.placeholder))].join(' ');
}
