// One colour per series for a whole page: a run or policy is drawn in the same colour on every
// chart, whichever other series a chart has (Vega-Lite otherwise colours by position in each
// chart's own domain, so autoadmin was blue in one chart and orange in the next).

/** Tableau 10, Vega's default scheme, in its order: well told apart, also in print. */
export const SERIES_PALETTE = [
  '#4c78a8', '#f58518', '#e45756', '#72b7b2', '#54a24b', '#eeca3b', '#b279a2', '#ff9da6', '#9d755d', '#bab0ac',
] as const;

/** A colour scale for one chart: its series and their colours, position for position. */
export interface SeriesScale {
  readonly domain: readonly string[];
  readonly range: readonly string[];
}

/**
 * The page's colours: a series gets a colour the first time any chart asks for it, and keeps it.
 * A new series takes the first palette colour no other series of the asking chart holds, so the
 * runs of a second trace (which share no name with the first) start again at blue instead of
 * wrapping into greys; only past ten series in one chart do colours repeat, and charts hold at
 * most about 8.
 */
export class SeriesColours {
  readonly #colours = new Map<string, string>();

  /** The scale of a chart drawing `series` (legend order as given, repeats dropped). */
  scaleFor(series: Iterable<string>): SeriesScale {
    const domain = [...new Set(series)];
    const taken = new Set(domain.map((name) => this.#colours.get(name)).filter((colour) => colour !== undefined));
    for (const name of domain) {
      if (this.#colours.has(name)) continue;
      const colour = SERIES_PALETTE.find((candidate) => !taken.has(candidate)) ?? SERIES_PALETTE[taken.size % SERIES_PALETTE.length]!;
      this.#colours.set(name, colour);
      taken.add(colour);
    }
    return { domain, range: domain.map((name) => this.#colours.get(name)!) };
  }
}
