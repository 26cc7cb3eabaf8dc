// DuckDB lets one process write a database file. When another holds it, opening fails with
// "Could not set lock on file "F": Conflicting lock is held in PROGRAM (PID N)". This reads
// that message and names the holder for a person: its pid, program and, where /proc shows it,
// its command line.

import { readFileSync } from 'node:fs';

export interface LockConflict {
  readonly pid: number;
  readonly program: string;
}

const CONFLICT = /Could not set lock on file .*Conflicting lock is held in (.*) \(PID (\d+)\)/s;

/** The holder a DuckDB lock error names, or null for any other error. */
export function lockConflictOf(message: string): LockConflict | null {
  const m = CONFLICT.exec(message);
  return m ? { program: m[1]!.trim(), pid: Number(m[2]) } : null;
}

const MAX_COMMAND_CHARS = 120;

/** `PID 1234 (node bin/rmreplay.js sweep ...)`, or `PID 1234 (/usr/bin/node)` where /proc is unreadable. */
export function describeLockHolder(conflict: LockConflict): string {
  let command = conflict.program;
  try {
    const args = readFileSync(`/proc/${conflict.pid}/cmdline`, 'utf8').split('\0').filter((arg) => arg !== '');
    // One line, whatever the arguments hold (a script passed with -e has newlines).
    if (args.length > 0) command = args.join(' ').replace(/\s+/g, ' ').trim();
  } catch {
    // Another OS, or the process is gone: the program DuckDB named is all there is.
  }
  if (command.length > MAX_COMMAND_CHARS) command = `${command.slice(0, MAX_COMMAND_CHARS - 3)}...`;
  return `PID ${conflict.pid} (${command})`;
}
