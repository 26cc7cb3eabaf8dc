// rmreplay installed as a tool: the tarball `npm pack` makes installs globally into a fresh prefix with
// nothing but the registry's packages (no override in a consumer's package.json can help there), and
// the installed command runs from a directory outside the clone. This drives npm itself, so it tests
// the compiled dist/ that `npm test` builds first.

import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'rmreplay-install-'));
// npm's own chatter (update notices, funding, audit) is not what this checks.
const npmEnv = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

// The installed tree is some 100 packages with DuckDB's binary: removing it takes longer than a
// test should wait (about 20 s on a loaded 2-core machine), so it is removed in the background.
afterAll(() => spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref());

// A fresh global install asks the registry for version lists that npm ci's cache lacks: where the
// registry cannot be reached the test is skipped, and says so in its name.
const REGISTRY_REACHABLE = spawnSync('npm', ['ping', '--fetch-timeout=10000', '--fetch-retries=0'], { env: npmEnv, timeout: 20_000 }).status === 0;
const NEEDS_REGISTRY = REGISTRY_REACHABLE ? '' : ' [SKIPPED: the npm registry cannot be reached]';

describe('the packed tarball', () => {
  it.skipIf(!REGISTRY_REACHABLE)(`installs globally and runs --help and the demo from another directory${NEEDS_REGISTRY}`, async () => {
    expect(existsSync(join(ROOT, 'dist/src/cli/main.js')), 'build first: npx tsc -p tsconfig.build.json').toBe(true);
    // --ignore-scripts: `prepare` would rebuild dist/, which `npm test` has just done.
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, env: npmEnv });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    expect(tarball).toBeDefined();

    const listing = await run('tar', ['tzf', join(work, tarball!)]);
    const files = listing.stdout.split('\n');
    // What the code reads at run time ships; the tests and benchmarks do not.
    expect(files).toContain('package/queries/fidelity.sql');
    expect(files).toContain('package/views/rm_apps.sql');
    expect(files).toContain('package/sql/recorded/recorded_segments.sql');
    expect(files).toContain('package/clusters/lab-20.json');
    expect(files.some((f) => f.startsWith('package/dist/test/') || f.startsWith('package/dist/bench/'))).toBe(false);

    const prefix = join(work, 'prefix');
    // --prefer-offline: the packages `npm ci` put in npm's cache are taken from there.
    await run(
      'npm',
      ['install', '--global', '--prefix', prefix, '--prefer-offline', '--loglevel=error', join(work, tarball!)],
      { cwd: work, env: npmEnv },
    );
    const elsewhere = mkdtempSync(join(work, 'cwd-'));
    // As a user's shell runs it: the prefix's bin on the PATH, not started through npm (whose
    // variables `npm test` passes down).
    const userEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));
    const shell = { cwd: elsewhere, env: { ...userEnv, PATH: `${join(prefix, 'bin')}:${process.env['PATH'] ?? ''}` } };

    const help = await run('rmreplay', ['--help'], shell);
    expect(help.stdout).toMatch(/^Usage: rmreplay /);
    expect(help.stdout).toContain('demo');

    const db = join(elsewhere, 'demo.duckdb');
    const demo = await run('rmreplay', ['--db', db, 'demo'], shell);
    // The AutoAdmin table's deadlocked row and the page the demo writes in the working directory.
    expect(demo.stdout).toMatch(/none\s.*DEADLOCK/);
    expect(existsSync(join(elsewhere, 'reports', 'demo.html'))).toBe(true);
    // Installed on the PATH, its hints name the command itself rather than npx.
    expect(demo.stdout).toContain(`Next: rmreplay --db ${db} sweep`);
  }, 240_000);
});
