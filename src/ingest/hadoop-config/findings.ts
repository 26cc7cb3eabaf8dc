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

function where(f: ConfigFinding): string {
  return f.line === null ? f.file : `${f.file}:${f.line}`;
}

/**
 * A human summary: counts per file and kind, then every used, unsupported and unknown finding
 * on its own line. Ignored findings are only counted (a yarn-site.xml holds dozens of
 * addresses and directories); the returned list keeps them for whoever wants them.
 */
export function formatFindings(findings: readonly ConfigFinding[]): string[] {
  const lines: string[] = [];
  const files = [...new Set(findings.map((f) => f.file))];
  for (const file of files) {
    const counts = FINDING_KINDS.map((kind) => {
      const n = findings.filter((f) => f.file === file && f.kind === kind).length;
      return n > 0 ? `${n} ${kind}` : null;
    }).filter((s): s is string => s !== null);
    lines.push(`${file}: ${counts.join(', ')}`);
  }
  const section = (kind: FindingKind, title: string): void => {
    const selected = findings.filter((f) => f.kind === kind);
    if (selected.length === 0) return;
    lines.push(title);
    for (const f of selected) {
      const target = f.field ? ` -> ${f.field}` : '';
      lines.push(`  ${where(f)} ${f.property} = ${JSON.stringify(f.value)}${target}: ${f.reason}`);
    }
  };
  section('used', 'used:');
  section('unsupported', 'unsupported (changes scheduling on a real cluster, not modelled):');
  section('unknown', 'unknown (not recognised):');
  return lines;
}
