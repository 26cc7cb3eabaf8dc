// `rmreplay completion bash|zsh`: the script, sourced by a real bash, completes every command the
// program has, a subcommand after its parent, and an option's fixed values.

import { execFileSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import type { CliContext } from '../../src/cli/context.js';
import { main } from '../../src/cli/main.js';
import { createProgram } from '../../src/cli/program.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

function context(): { ctx: CliContext; stdout: Capture } {
  const stdout = new Capture();
  const ctx: CliContext = {
    api,
    openStore: () => {
      throw new Error('completion opens no database');
    },
    stdout,
    stderr: new Capture(),
    env: {},
  };
  return { ctx, stdout };
}

async function script(shell: string): Promise<string> {
  const { ctx, stdout } = context();
  expect(await main(['completion', shell], ctx)).toBe(0);
  return stdout.text;
}

/** What bash offers after `words` (the last one is the word being completed). */
function complete(bashScript: string, words: string[]): string[] {
  const line = ['rmreplay', ...words].map((w) => `'${w}'`).join(' ');
  const driver = `${bashScript}\nCOMP_WORDS=(${line}); COMP_CWORD=${words.length}; _rmreplay_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', driver], { encoding: 'utf8' }).split('\n').filter((w) => w !== '');
}

describe('rmreplay completion', () => {
  it('bash lists every top-level command and the global options', async () => {
    const bash = await script('bash');
    const names = createProgram(context().ctx).commands.map((c) => c.name());
    expect(names).toContain('completion');
    const offered = complete(bash, ['']);
    for (const name of names) expect(offered).toContain(name);
    expect(offered).toEqual(expect.arrayContaining(['--db', '--wait', '--wide']));
    expect(complete(bash, ['re'])).toEqual(['replay', 'report']);
  });

  it('bash completes a subcommand after its parent, past options and their values', async () => {
    const bash = await script('bash');
    expect(complete(bash, ['--db', 'x.duckdb', 'ingest', ''])).toEqual(expect.arrayContaining(['rmlog', 'swim']));
    expect(complete(bash, ['runs', 'pr'])).toEqual(['prune']);
    // After an option with fixed values: those values; after one taking a path: nothing (files).
    expect(complete(bash, ['runs', '--status', ''])).toEqual(expect.arrayContaining(['current', 'replaced', 'superseded']));
    expect(complete(bash, ['--db', ''])).toEqual([]);
    expect(complete(bash, ['completion', ''])).toEqual(['bash', 'zsh', '--help']);
  });

  it('zsh loads the same function through bashcompinit', async () => {
    const zsh = await script('zsh');
    expect(zsh.split('\n')[0]).toBe('#compdef rmreplay');
    expect(zsh).toContain('bashcompinit');
    expect(zsh).toContain(await script('bash'));
  });
});
