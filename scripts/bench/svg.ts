/**
 * @module A line chart as SVG text, written by hand so the benchmark needs no charting dependency.
 * Both axes are logarithmic: sizes span decades, and latency that does not grow shows as a flat line
 * whatever its level.
 */

export interface Series {
  label: string;
  /** One value per x, or NaN where there is none. */
  values: number[];
}

export interface ChartParams {
  title: string;
  xLabel: string;
  yLabel: string;
  xs: number[];
  series: Series[];
}

const WIDTH = 760;
const HEIGHT = 440;
const MARGIN = { top: 40, right: 250, bottom: 50, left: 64 };
const COLOURS = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#7f7f7f',
  '#bcbd22',
];

export function lineChart({ title, xLabel, yLabel, xs, series }: ChartParams): string {
  const values = series.flatMap((s) => s.values).filter((v) => Number.isFinite(v) && v > 0);
  const yTicks = logTicks(Math.min(...values, 1), Math.max(...values, 10));
  const [yMin, yMax] = [yTicks[0] as number, yTicks[yTicks.length - 1] as number];
  const [xMin, xMax] = xs.length > 1 ? [Math.min(...xs), Math.max(...xs)] : [(xs[0] ?? 1) / 10, (xs[0] ?? 1) * 10];
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (v: number) => MARGIN.left + (plotWidth * Math.log10(v / xMin)) / Math.log10(xMax / xMin);
  const y = (v: number) => MARGIN.top + plotHeight - (plotHeight * Math.log10(v / yMin)) / Math.log10(yMax / yMin);

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12" role="img">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="${MARGIN.left}" y="24" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (const tick of yTicks) {
    parts.push(
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${f(y(tick))}" y2="${f(y(tick))}" stroke="#ddd"/>`,
      `<text x="${MARGIN.left - 6}" y="${f(y(tick) + 4)}" text-anchor="end">${tick}</text>`,
    );
  }
  for (const size of xs) {
    parts.push(
      `<line x1="${f(x(size))}" x2="${f(x(size))}" y1="${MARGIN.top}" y2="${MARGIN.top + plotHeight}" stroke="#ddd"/>`,
      `<text x="${f(x(size))}" y="${MARGIN.top + plotHeight + 16}" text-anchor="middle">${compact(size)}</text>`,
    );
  }
  parts.push(
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#888"/>`,
    `<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 10}" text-anchor="middle">${escapeXml(xLabel)}</text>`,
    `<text transform="translate(16 ${MARGIN.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">${escapeXml(yLabel)}</text>`,
  );
  series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const points = xs.flatMap((size, j) => {
      const v = s.values[j];
      return v !== undefined && Number.isFinite(v) && v > 0 ? [[x(size), y(v)] as const] : [];
    });
    parts.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.map(([px, py]) => `${f(px)},${f(py)}`).join(' ')}"/>`,
      ...points.map(([px, py]) => `<circle cx="${f(px)}" cy="${f(py)}" r="3.5" fill="${colour}"/>`),
    );
    const legendY = MARGIN.top + 10 + i * 20;
    const legendX = MARGIN.left + plotWidth + 16;
    parts.push(
      `<line x1="${legendX}" x2="${legendX + 20}" y1="${legendY}" y2="${legendY}" stroke="${colour}" stroke-width="2"/>`,
      `<text x="${legendX + 26}" y="${legendY + 4}">${escapeXml(s.label)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/** 1, 2, 5, 10, 20, 50… covering [min, max]. */
function logTicks(min: number, max: number): number[] {
  const ticks: number[] = [];
  for (let decade = 10 ** Math.floor(Math.log10(min)); decade <= max * 10; decade *= 10) {
    for (const step of [1, 2, 5]) ticks.push(Number((decade * step).toPrecision(3)));
  }
  const first = ticks.findLastIndex((t) => t <= min);
  const last = ticks.findIndex((t) => t >= max);
  return ticks.slice(Math.max(0, first), last + 1);
}

function compact(n: number): string {
  if (n >= 1_000_000) return `${n / 1_000_000}M`;
  if (n >= 1000) return `${n / 1000}k`;
  return String(n);
}

const f = (n: number) => n.toFixed(1);

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
