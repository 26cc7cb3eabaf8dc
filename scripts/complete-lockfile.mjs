#!/usr/bin/env node
// The npm registry this project installs from serves @duckdb/node-bindings only for Linux x64,
// so `npm install` leaves the other platforms' optional packages out of package-lock.json and
// `npm ci` then refuses the lock as out of sync. This records them with their os/cpu/libc
// constraints (no download address), so npm sees them as optional packages for other platforms
// and skips them. Run it after regenerating the lockfile: node scripts/complete-lockfile.mjs

import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
const bindings = packages['node_modules/@duckdb/node-bindings'];
if (!bindings) throw new Error('package-lock.json has no @duckdb/node-bindings');

const PLATFORMS = {
  'darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
  'darwin-x64': { os: ['darwin'], cpu: ['x64'] },
  'linux-arm64': { os: ['linux'], cpu: ['arm64'], libc: ['glibc'] },
  'linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
  'linux-x64': { os: ['linux'], cpu: ['x64'], libc: ['glibc'] },
  'linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'] },
  'win32-arm64': { os: ['win32'], cpu: ['arm64'] },
  'win32-x64': { os: ['win32'], cpu: ['x64'] },
};

let added = 0;
for (const name of Object.keys(bindings.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (packages[key]) continue;
  const platform = PLATFORMS[name.replace('@duckdb/node-bindings-', '')];
  if (!platform) throw new Error(`no platform constraints known for ${name}`);
  packages[key] = {
    version: bindings.optionalDependencies[name],
    cpu: platform.cpu,
    ...(platform.libc ? { libc: platform.libc } : {}),
    license: 'MIT',
    optional: true,
    os: platform.os,
  };
  added++;
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: recorded ${added} DuckDB binding package(s) for other platforms`);
