// A command line a user can paste: arguments quoted for a POSIX shell. Never a placeholder to
// fill in: a command a hint prints runs as it is. Below the CLI, so that the API's texts (a
// report's hint) name commands the same way the CLI's hints do.

/** The command's name, as a hint prints it where no CLI says how the user runs it. */
export const BIN_NAME = 'rmreplay';

/** An argument as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellQuote(argument: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(argument)) return argument;
  return `'${argument.replaceAll("'", `'\\''`)}'`;
}

/** A command line to print: how rmreplay was invoked, then the arguments, each quoted as needed. */
export function commandLine(invocation: string, args: readonly string[]): string {
  return [invocation, ...args.map(shellQuote)].join(' ');
}
