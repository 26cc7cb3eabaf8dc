import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandLine, invokedAs, isOnPath, shellQuote } from '../../src/cli/invocation.js';
import { tempPath } from '../helpers/files.js';

describe('how hints name the command', () => {
  it('says npx rmreplay when npm started it (npx, npm exec, npm run)', () => {
    const everywhere = (): boolean => true;
    expect(invokedAs({ npm_lifecycle_event: 'npx', npm_command: 'exec' }, everywhere)).toBe('npx rmreplay');
    expect(invokedAs({ npm_lifecycle_event: 'nightly-report' }, everywhere)).toBe('npx rmreplay');
  });

  it('says rmreplay when it is on the PATH, npx rmreplay when it is not', () => {
    expect(invokedAs({ PATH: '/usr/bin' }, () => true)).toBe('rmreplay');
    expect(invokedAs({ PATH: '/usr/bin' }, () => false)).toBe('npx rmreplay');
  });

  it('finds an executable on the PATH but not in a node_modules/.bin that npm put there', () => {
    const bin = tempPath('invocation-bin');
    const npmBin = tempPath('invocation-project/node_modules/.bin');
    for (const dir of [bin, npmBin]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(npmBin, 'rmreplay'), '#!/bin/sh\n');
    chmodSync(join(npmBin, 'rmreplay'), 0o755);
    expect(isOnPath('rmreplay', `${npmBin}:/nonexistent`)).toBe(false);
    writeFileSync(join(bin, 'rmreplay'), '#!/bin/sh\n');
    chmodSync(join(bin, 'rmreplay'), 0o755);
    expect(isOnPath('rmreplay', `/nonexistent:${bin}`)).toBe(true);
  });

  it('quotes arguments a POSIX shell would split or expand', () => {
    expect(shellQuote('cluster-a_2026.log')).toBe('cluster-a_2026.log');
    expect(shellQuote('my cluster')).toBe("'my cluster'");
    expect(shellQuote("bob's log")).toBe("'bob'\\''s log'");
    expect(shellQuote('a*b')).toBe("'a*b'");
    expect(shellQuote('')).toBe("''");
    expect(commandLine('npx rmreplay', ['replay', '--trace', 'my log', '--cluster', 'lab-20'])).toBe("npx rmreplay replay --trace 'my log' --cluster lab-20");
  });
});
