// Identifiers (trace names, policy specs, app ids, queues) shortened to fit a narrow table
// column: known long words abbreviated, then the middle cut out with `…`, so that two values that
// differ stay different (an app id's sequence number, a policy's value are often at the end).

/** Long words identifiers are made of, and the short forms an operator reads without a legend. */
const ABBREVIATIONS: readonly (readonly [RegExp, string])[] = [
  [/application_/g, 'app_'],
  [/resourcemanager/g, 'rm'],
  [/capacity/g, 'cap'],
  [/configured/g, 'config'],
];

/**
 * A short form of at most `width` characters for each of `values` (each distinct value its own),
 * the same for the same input; null when no cut keeps them apart at that width. A value that fits
 * is kept whole. A path keeps its end (its file name).
 */
export function shortNames(values: readonly string[], width: number): Map<string, string> | null {
  const distinct = [...new Set(values)];
  const abbreviated = new Map(distinct.map((value) => [value, value.length <= width ? value : abbreviate(value)]));
  const sources = injective(abbreviated) ? abbreviated : new Map(distinct.map((value) => [value, value]));
  for (const head of headLengths(width, distinct.some((value) => value.includes('/')))) {
    const cut = new Map([...sources].map(([value, source]) => [value, cutMiddle(source, width, head)]));
    if (injective(cut)) return cut;
  }
  return null;
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
