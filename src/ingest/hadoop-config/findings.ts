// What the Hadoop configuration import did with each property or allocation-file element it
// read (applied, known but irrelevant, not modelled, not recognised), and the human summary.

/**
 * - `used`: applied to the cluster, or its value is what the replay models anyway.
 * - `ignored`: known, and irrelevant to scheduling (addresses, directories, security, UI...).
 * - `unsupported`: changes scheduling on a real cluster, but rmreplay does not model it; the
 *   reason says what the replay does instead.
 * - `unknown`: not recognised.
 */
export type FindingKind = 'used' | 'ignored' | 'unsupported' | 'unknown';
const FINDING_KINDS: readonly FindingKind[] = ['used', 'ignored', 'unsupported', 'unknown'];

export interface ConfigFinding {
  /** The file as given by the caller. */
  readonly file: string;
  /** 1-based line of the property or element; null when not known. */
  readonly line: number | null;
  /**
   * The Hadoop property name; in an allocation file the element, with the queue or user it
   * belongs to: `queue[root.prod]/maxAMShare`, `user[alice]/maxRunningApps`, `userMaxAppsDefault`.
   */
  readonly property: string;
  /** The value after `${var}` substitution, trimmed. */
  readonly value: string;
  readonly kind: FindingKind;
  /** The rmreplay cluster field it sets (`scheduler.queues[root.dev].userLimitFactor`), if any. */
  readonly field: string | null;
  readonly reason: string;
}

export interface FindingSource {
  readonly file: string;
  readonly line: number | null;
  readonly property: string;
  readonly value: string;
}

export function finding(
  source: FindingSource,
  kind: FindingKind,
  reason: string,
  field: string | null = null,
): ConfigFinding {
  return { file: source.file, line: source.line, property: source.property, value: source.value, kind, field, reason };
}

/** How many findings of a kind a file gave, kept or not. */
export interface FindingCount {
  readonly file: string;
  readonly kind: FindingKind;
  readonly count: number;
}

/** What an import found: the findings kept, and the count of all, kept or not. */
export interface Findings {
  readonly findings: readonly ConfigFinding[];
  readonly findingCounts: readonly FindingCount[];
}

/**
 * Findings of a kind that can repeat without bound and changes nothing (unknown, ignored) kept
 * per file; the rest are only counted. A yarn-site.xml of a million unknown properties made a
 * million findings and a million lines of notes, in 3.3 GB; a real one has a few dozen.
 */
export const FINDINGS_KEPT = 20;
const COUNTED_ONLY_PAST_KEPT: ReadonlySet<FindingKind> = new Set<FindingKind>(['unknown', 'ignored']);

/** Findings as an import makes them: every used and unsupported one, the first FINDINGS_KEPT of the others per file, and counts of all. */
export class FindingList implements Findings {
  readonly findings: ConfigFinding[] = [];
  private readonly counts = new Map<string, Map<FindingKind, number>>();

  /** Start from what earlier steps found (the file's own findings, from reading it). */
  constructor(...earlier: readonly (Findings | null | undefined)[]) {
    for (const part of earlier) {
      if (part === null || part === undefined) continue;
      this.findings.push(...part.findings);
      for (const { file, kind, count } of part.findingCounts) this.count(file, kind, count);
    }
  }

  push(f: ConfigFinding): void {
    const n = this.count(f.file, f.kind, 1);
    if (n <= FINDINGS_KEPT || !COUNTED_ONLY_PAST_KEPT.has(f.kind)) this.findings.push(f);
  }

  get findingCounts(): FindingCount[] {
    return [...this.counts].flatMap(([file, kinds]) => [...kinds].map(([kind, count]) => ({ file, kind, count })));
  }

  private count(file: string, kind: FindingKind, n: number): number {
    let kinds = this.counts.get(file);
    if (kinds === undefined) this.counts.set(file, (kinds = new Map<FindingKind, number>()));
    const count = (kinds.get(kind) ?? 0) + n;
    kinds.set(kind, count);
    return count;
  }
}

function where(f: ConfigFinding): string {
  return f.line === null ? f.file : `${f.file}:${f.line}`;
}

/**
 * A human summary: counts per file and kind, then every used and unsupported finding and the
 * unknown ones kept on their own line, with how many more of each file were only counted.
 * Ignored findings are only counted (a yarn-site.xml holds dozens of addresses and
 * directories); the list keeps them for whoever wants them. Without `counts`, the findings
 * are all there are.
 */
export function formatFindings(findings: readonly ConfigFinding[], counts?: readonly FindingCount[]): string[] {
  const lines: string[] = [];
  const total = new Map<string, Map<FindingKind, number>>();
  for (const { file, kind, count } of counts ?? findings.map((f) => ({ file: f.file, kind: f.kind, count: 1 }))) {
    const kinds = total.get(file) ?? new Map<FindingKind, number>();
    total.set(file, kinds.set(kind, (kinds.get(kind) ?? 0) + count));
  }
  for (const [file, kinds] of total) {
    const listed = FINDING_KINDS.filter((kind) => (kinds.get(kind) ?? 0) > 0).map((kind) => `${kinds.get(kind)} ${kind}`);
    lines.push(`${file}: ${listed.join(', ')}`);
  }
  const section = (kind: FindingKind, title: string): void => {
    const selected = findings.filter((f) => f.kind === kind);
    if (selected.length === 0) return;
    lines.push(title);
    for (const f of selected) {
      const target = f.field ? ` -> ${f.field}` : '';
      lines.push(`  ${where(f)} ${f.property} = ${JSON.stringify(f.value)}${target}: ${f.reason}`);
    }
    for (const [file, kinds] of total) {
      const more = (kinds.get(kind) ?? 0) - selected.filter((f) => f.file === file).length;
      if (more > 0) lines.push(`  ... and ${more} more ${kind} in ${file}`);
    }
  };
  section('used', 'used:');
  section('unsupported', 'unsupported (changes scheduling on a real cluster, not modelled):');
  section('unknown', 'unknown (not recognised):');
  return lines;
}
