// Identifiers (trace names, policy specs, app ids, queues) shortened to fit a narrow table
// column: the words every value shares left out (a sweep's traces share their scenario and its
// fixed parameters, and differ in the parameters swept), known long words abbreviated, then the
// middle cut out with `…`, so that two values that differ stay different (an app id's sequence
// number, a policy's value are often at the end).

/** Long words identifiers are made of, and the short forms an operator reads without a legend. */
const ABBREVIATIONS: readonly (readonly [RegExp, string])[] = [
  [/application_/g, 'app_'],
  [/resourcemanager/g, 'rm'],
  [/capacity/g, 'cap'],
  [/configured/g, 'config'],
];

export interface ShortNames {
  /** Each distinct value's short form. */
  readonly names: Map<string, string>;
  /** The space-separated words left out of every value because every value has them, in order. */
  readonly sharedWords: readonly string[];
}

/**
 * A short form of at most `width` characters for each of `values` (each distinct value its own),
 * the same for the same input; null when no cut keeps them apart at that width. When some value
 * does not fit, the words every (non-empty) value has are left out of all of them, a value left
 * with none keeping its first; what stays and does not fit is abbreviated, then cut in the middle.
 * A path keeps its end (its file name).
 */
export function shortNames(values: readonly string[], width: number): ShortNames | null {
  const distinct = [...new Set(values)];
  const shared = distinct.some((value) => value.length > width) ? sharedWords(distinct) : [];
  const reduced = new Map(distinct.map((value) => [value, withoutWords(value, shared)]));
  const kept = injective(reduced) ? { sources: reduced, sharedWords: shared } : { sources: new Map(distinct.map((value) => [value, value])), sharedWords: [] };
  const abbreviated = new Map([...kept.sources].map(([value, source]) => [value, source.length <= width ? source : abbreviate(source)]));
  const sources = injective(abbreviated) ? abbreviated : kept.sources;
  for (const head of headLengths(width, distinct.some((value) => value.includes('/')))) {
    const cut = new Map([...sources].map(([value, source]) => [value, cutMiddle(source, width, head)]));
    if (injective(cut)) return { names: cut, sharedWords: kept.sharedWords };
  }
  return null;
}

/** The words (split at spaces) that every non-empty value of two or more has, in the first's order. */
function sharedWords(values: readonly string[]): string[] {
  const filled = values.filter((value) => value !== '');
  if (filled.length < 2) return [];
  const [first, ...rest] = filled.map((value) => value.split(' '));
  return [...new Set(first)].filter((word) => word !== '' && rest.every((words) => words.includes(word)));
}

/** `value` without `words`; its first word when that would leave nothing (it still names the row). */
function withoutWords(value: string, words: readonly string[]): string {
  if (words.length === 0 || value === '') return value;
  const left = value.split(' ').filter((word) => !words.includes(word));
  return left.length > 0 ? left.join(' ') : value.split(' ')[0]!;
}

function abbreviate(value: string): string {
  return ABBREVIATIONS.reduce((text, [word, short]) => text.replace(word, short), value);
}

/**
 * How many leading characters to keep, best first: half the width for names (their family at
 * the start, their value at the end), none for paths; then every other split, nearest first.
 */
function headLengths(width: number, paths: boolean): number[] {
  const room = width - 1;
  if (room < 1) return [];
  const preferred = paths ? 0 : Math.ceil(room / 2);
  const all = Array.from({ length: room + 1 }, (_, k) => k);
  return all.sort((a, b) => Math.abs(a - preferred) - Math.abs(b - preferred) || b - a);
}

function cutMiddle(text: string, width: number, head: number): string {
  if (text.length <= width) return text;
  const tail = width - 1 - head;
  return `${text.slice(0, head)}…${tail > 0 ? text.slice(text.length - tail) : ''}`;
}

function injective(mapping: ReadonlyMap<string, string>): boolean {
  return new Set(mapping.values()).size === mapping.size;
}
