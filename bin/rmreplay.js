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
// A worker that lost its queue (status 3) leaves BullMQ's clients behind, reconnecting for ever to
// a Redis that is gone: nothing else is left to do, so leave without them.
if (process.exitCode === 3) process.exit(3);
