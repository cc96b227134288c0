// The html report's charts as inline SVG strings: no script, no font or image to fetch. Each is
// drawn in a 360-unit-wide box that scales to its column (readable from a 320 px phone to a
// desktop); colours come from the product's tokens through the classes html.ts styles.

export const esc = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const W = 360;
const f = (x: number) => (Math.round(x * 10) / 10).toString();

/** A round step for an axis from 0 to `max`, about four ticks. */
function niceStep(max: number): number {
  if (!(max > 0)) return 1;
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  return step;
}

function svg(height: number, title: string, body: string[], width = W): string {
  return [
    `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(title)}">`,
    `<title>${esc(title)}</title>`,
    ...body,
    "</svg>",
  ].join("");
}

/** A column per point over a 0-based axis: MRR per month. */
export function columnChart(
  title: string,
  points: readonly { label: string; value: number }[],
  formatValue: (v: number) => string,
): string {
  const H = 220;
  const left = 70;
  const right = 8;
  const top = 12;
  const bottom = 36;
  const plotW = W - left - right;
  const plotH = H - top - bottom;
  const max = Math.max(0, ...points.map((p) => p.value));
  const step = niceStep(max);
  const top1 = Math.max(step, Math.ceil(max / step) * step);
  const y = (v: number) => top + plotH - (v / top1) * plotH;
  const body: string[] = [];
  for (let v = 0; v <= top1 + step / 2; v += step) {
    body.push(
      `<line class="grid" x1="${left}" x2="${W - right}" y1="${f(y(v))}" y2="${f(y(v))}"/>`,
      `<text class="tick" x="${left - 4}" y="${f(y(v) + 4)}" text-anchor="end">${esc(formatValue(v))}</text>`,
    );
  }
  const slot = plotW / Math.max(1, points.length);
  const every = Math.max(1, Math.ceil(points.length / 4));
  points.forEach((p, i) => {
    const x = left + i * slot;
    const h = Math.max(0, y(0) - y(p.value));
    body.push(
      `<rect class="bar" x="${f(x + slot * 0.15)}" y="${f(y(0) - h)}" width="${f(slot * 0.7)}" height="${f(h)}"><title>${esc(`${p.label}: ${formatValue(p.value)}`)}</title></rect>`,
    );
    if (i % every === 0)
      body.push(
        `<text class="tick" x="${f(x + slot / 2)}" y="${H - bottom + 16}" text-anchor="middle">${esc(p.label)}</text>`,
      );
  });
  return svg(H, title, body);
}

/** A horizontal bar per row: active subscriptions per plan. */
export function barChart(title: string, rows: readonly { label: string; value: number }[]): string {
  const rowH = 26;
  const labelW = 160;
  const H = Math.max(1, rows.length) * rowH + 8;
  const max = Math.max(1, ...rows.map((r) => r.value));
  const span = W - labelW - 40;
  const body = rows.map((r, i) => {
    const yTop = 4 + i * rowH;
    const w = (r.value / max) * span;
    return [
      `<text class="label" x="${labelW - 6}" y="${yTop + 17}" text-anchor="end">${esc(r.label)}</text>`,
      `<rect class="bar" x="${labelW}" y="${yTop + 4}" width="${f(w)}" height="${rowH - 8}" rx="3"/>`,
      `<text class="value" x="${f(labelW + w + 4)}" y="${yTop + 17}">${r.value}</text>`,
    ].join("");
  });
  return svg(H, title, body);
}

/** Gains up, losses down, per week: new and upgraded above the line, the rest below. */
export function movementChart(
  title: string,
  weeks: readonly {
    week: string;
    new: number;
    upgraded: number;
    downgraded: number;
    cancelled: number;
    lapsed: number;
  }[],
): string {
  const H = 220;
  const left = 34;
  const top = 10;
  const bottom = 24;
  const plotH = H - top - bottom;
  const up = Math.max(1, ...weeks.map((w) => w.new + w.upgraded));
  const down = Math.max(1, ...weeks.map((w) => w.downgraded + w.cancelled + w.lapsed));
  const zero = top + (plotH * up) / (up + down);
  const unit = plotH / (up + down);
  const slot = (W - left - 4) / Math.max(1, weeks.length);
  const body: string[] = [
    `<line class="axis" x1="${left}" x2="${W - 4}" y1="${f(zero)}" y2="${f(zero)}"/>`,
    `<text class="tick" x="${left - 4}" y="${f(top + 8)}" text-anchor="end">+${up}</text>`,
    `<text class="tick" x="${left - 4}" y="${f(H - bottom)}" text-anchor="end">-${down}</text>`,
  ];
  const every = Math.max(1, Math.ceil(weeks.length / 5));
  weeks.forEach((w, i) => {
    const x = f(left + i * slot + slot * 0.1);
    const width = f(Math.max(0.5, slot * 0.8));
    let above = zero;
    for (const [kind, n] of [
      ["new", w.new],
      ["upgraded", w.upgraded],
    ] as const) {
      if (n === 0) continue;
      above -= n * unit;
      body.push(
        `<rect class="m-${kind}" x="${x}" y="${f(above)}" width="${width}" height="${f(n * unit)}"><title>${esc(`${w.week}: ${n} ${kind}`)}</title></rect>`,
      );
    }
    let below = zero;
    for (const [kind, n] of [
      ["downgraded", w.downgraded],
      ["cancelled", w.cancelled],
      ["lapsed", w.lapsed],
    ] as const) {
      if (n === 0) continue;
      body.push(
        `<rect class="m-${kind}" x="${x}" y="${f(below)}" width="${width}" height="${f(n * unit)}"><title>${esc(`${w.week}: ${n} ${kind}`)}</title></rect>`,
      );
      below += n * unit;
    }
    if (i % every === 0)
      body.push(
        `<text class="tick" x="${f(left + i * slot + slot / 2)}" y="${H - bottom + 14}" text-anchor="middle">${esc(w.week.slice(5))}</text>`,
      );
  });
  return svg(H, title, body);
}

/** Each group's conversion as a dot with its interval as a line, on a shared 0-based axis. */
export function intervalChart(
  title: string,
  rows: readonly { label: string; estimate: number; low: number; high: number; tone: string }[],
): string {
  // Narrower than the others: it stands alone in its section, and its labels stay legible.
  const width = 300;
  const rowH = 30;
  const labelW = 90;
  const axisH = 24;
  const H = Math.max(1, rows.length) * rowH + axisH + 6;
  const span = width - labelW - 16;
  const max = Math.max(0.01, ...rows.map((r) => r.high));
  const step = niceStep(max);
  const top1 = Math.max(step, Math.ceil(max / step) * step);
  const x = (v: number) => labelW + (Math.min(Math.max(v, 0), top1) / top1) * span;
  const pct = (v: number) => `${(v * 100).toFixed(step * 100 < 1 ? 1 : 0)}%`;
  const body: string[] = [];
  for (let v = 0; v <= top1 + step / 2; v += step) {
    body.push(
      `<line class="grid" x1="${f(x(v))}" x2="${f(x(v))}" y1="4" y2="${H - axisH}"/>`,
      `<text class="tick" x="${f(x(v))}" y="${H - 8}" text-anchor="middle">${pct(v)}</text>`,
    );
  }
  rows.forEach((r, i) => {
    const cy = 4 + i * rowH + rowH / 2;
    body.push(
      `<text class="label" x="${labelW - 8}" y="${f(cy + 4)}" text-anchor="end">${esc(r.label)}</text>`,
      `<line class="whisker ${esc(r.tone)}" x1="${f(x(r.low))}" x2="${f(x(r.high))}" y1="${f(cy)}" y2="${f(cy)}"/>`,
      `<line class="whisker ${esc(r.tone)}" x1="${f(x(r.low))}" x2="${f(x(r.low))}" y1="${f(cy - 6)}" y2="${f(cy + 6)}"/>`,
      `<line class="whisker ${esc(r.tone)}" x1="${f(x(r.high))}" x2="${f(x(r.high))}" y1="${f(cy - 6)}" y2="${f(cy + 6)}"/>`,
      `<circle class="dot ${esc(r.tone)}" cx="${f(x(r.estimate))}" cy="${f(cy)}" r="5"><title>${esc(`${r.label}: ${pct(r.estimate)} (${pct(r.low)} to ${pct(r.high)})`)}</title></circle>`,
    );
  });
  return svg(H, title, body, width);
}
