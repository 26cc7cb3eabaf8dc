#!/usr/bin/env node
// The installed command: runs the compiled CLI (built by `npm ci` through the `prepare` script).
import { main } from '../dist/src/cli/main.js';

// A reader that stops early (`rmreplay report ... | head`) closes the pipe. Like grep or
// ripgrep, stop there with status 0 instead of dying on an unhandled EPIPE with a stack trace.
// Nothing is lost: each run and each ingested file is committed in its own transaction before
// anything about it is printed.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
