// Import cycles among TypeScript sources: each group of files that reach each other through
// their relative imports and re-exports (type-only ones too: a cycle of types still ties the
// files together for a reader), found as strongly connected components (Tarjan).

import fs from 'node:fs';
import path from 'node:path';

/** Each file's relative imports, as absolute .ts paths, read from its text. */
export function importGraph(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets: string[] = [];
    for (const match of text.matchAll(/(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g)) {
      targets.push(path.resolve(path.dirname(file), match[1]!.replace(/\.js$/, '.ts')));
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The groups of more than one file that import each other, each sorted, in a stable order. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Every .ts file under `dir` with its text. */
export function readSources(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(file, fs.readFileSync(file, 'utf8'));
  }
  return files;
}
