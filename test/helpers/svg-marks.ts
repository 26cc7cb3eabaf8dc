// What a rendered Vega SVG drew: each mark group (`<g class="mark-TYPE role-mark ...">`) with the
// number of shapes in it, so a chart test can say "two lines, three bars" without a browser.

export interface MarkGroup {
  readonly type: string;
  readonly shapes: number;
}

export function markGroups(svg: string): MarkGroup[] {
  const groups: MarkGroup[] = [];
  const opening = /<g class="mark-([a-z]+) role-mark[^"]*"[^>]*>/g;
  for (let match = opening.exec(svg); match !== null; match = opening.exec(svg)) {
    const body = svg.slice(match.index + match[0].length, svg.indexOf('</g>', match.index));
    groups.push({ type: match[1]!, shapes: (body.match(/<(path|rect|line|circle)\b/g) ?? []).length });
  }
  return groups;
}

/** Shapes drawn by marks of one type, over all its groups. */
export function shapesOf(svg: string, type: string): number {
  return markGroups(svg)
    .filter((group) => group.type === type)
    .reduce((sum, group) => sum + group.shapes, 0);
}

/** Groups of one mark type (a line chart draws one per series). */
export function groupsOf(svg: string, type: string): number {
  return markGroups(svg).filter((group) => group.type === type).length;
}
