// docs/cli.md is the program's --help: regenerate it (npm run docs:cli) when a command changes.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import { cliReference } from '../../src/cli/help-doc.js';
import { Writable } from 'node:stream';

const discard = new Writable({ write: (_chunk, _encoding, callback) => callback() });

describe('docs/cli.md', () => {
  it('is what the program prints for --help, command by command', () => {
    const page = cliReference({
      api,
      openStore: () => {
        throw new Error('the help page opens no database');
      },
      stdout: discard,
      stderr: discard,
      env: {},
    });
    const stored = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    // Every command has its section, so a new command cannot slip past the comparison below.
    expect(page).toContain('## rmreplay completion\n');
    expect(stored === page, 'docs/cli.md is stale: run `npm run docs:cli`').toBe(true);
  });
});
