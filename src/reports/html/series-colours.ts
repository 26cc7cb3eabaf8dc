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
 * The page's colours: a series gets the next colour of the palette the first time any chart
 * asks for it, and keeps it. Past ten series the palette repeats; charts hold at most about 8.
 */
export class SeriesColours {
  readonly #colours = new Map<string, string>();

  colourOf(series: string): string {
    let colour = this.#colours.get(series);
    if (colour === undefined) {
      colour = SERIES_PALETTE[this.#colours.size % SERIES_PALETTE.length]!;
      this.#colours.set(series, colour);
    }
    return colour;
  }

  /** The scale of a chart drawing `series` (legend order as given, repeats dropped). */
  scaleFor(series: Iterable<string>): SeriesScale {
    const domain = [...new Set(series)];
    return { domain, range: domain.map((name) => this.colourOf(name)) };
  }
}
