// Compares a section of a page with its baseline so that a new Chromium build's rendering passes
// and a change a person would see fails (decision 0026):
//
// - A pixel matches when the other image has a pixel of about its colour (each channel within
//   COLOUR) within one pixel of it: anti-aliasing and a glyph edge drawn a pixel over pass, a
//   changed digit, colour or missing word does not (its pixels have nothing like them nearby).
// - Rows are aligned elastically: the offset between the two images may grow or shrink by one
//   pixel per row, up to DRIFT, so a line box one pixel taller (or a few of them) shifts what is
//   below it without a difference. The path is the cheapest one (fewest unmatched pixels), found
//   by dynamic programming over rows × offsets.
// - Both ways: every pixel of the actual image must match in the baseline and every pixel of the
//   baseline in the actual image, so that something removed fails as surely as something added.
// - A section differs when more than RATIO of its pixels (at least MIN_PIXELS) are unmatched, or
//   when its width differs by more than WIDTH_SLACK pixels or its height by more than DRIFT.
import type { Image } from "./png.ts";

/** Per channel, out of 255: colour noise passes, a visible change of colour does not. */
export const COLOUR = 24;
/**
 * Unmatched pixels allowed: one in 100,000, at least 8. Rendering noise from another build leaves
 * next to none once a pixel may match a neighbour; one changed digit of a card's price ($89 to
 * $88) leaves 37 in a 360 × 1,180 card, where a ratio of 1 in 10,000 would allow 42.
 */
export const RATIO = 1 / 100_000;
export const MIN_PIXELS = 8;
/** Width a section may gain or lose (sub-pixel widths rounded either way). */
export const WIDTH_SLACK = 2;
/** How far rows may drift apart: 1 % of the height, at least 4 pixels. */
export const driftFor = (height: number) => Math.max(4, Math.ceil(height * 0.01));
/** Unmatched pixels in one row beyond which the alignment stops counting (see rowCost). */
const CAP = 64;

export type Comparison = {
  /** Unmatched pixels, the larger of the two directions. */
  unmatched: number;
  allowed: number;
  /** Why the section differs, or null when it matches. */
  difference: string | null;
  /** The actual image with unmatched pixels in red (null when the sizes already differ). */
  diff: Image | null;
};

/** Per pixel and channel, the lowest and highest value within one pixel, widened by COLOUR. */
function ranges(image: Image): { low: Int16Array; high: Int16Array } {
  const { width, height, data } = image;
  // Across first (three pixels of a row), then down (three rows of that): 3 × 3 in six steps.
  const rowMin = new Uint8Array(width * height * 3);
  const rowMax = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) {
        const at = (y * width + x) * 4 + c;
        let min = data[at] as number;
        let max = min;
        if (x > 0) {
          const v = data[at - 4] as number;
          if (v < min) min = v;
          if (v > max) max = v;
        }
        if (x < width - 1) {
          const v = data[at + 4] as number;
          if (v < min) min = v;
          if (v > max) max = v;
        }
        rowMin[(y * width + x) * 3 + c] = min;
        rowMax[(y * width + x) * 3 + c] = max;
      }
    }
  }
  const low = new Int16Array(width * height * 3);
  const high = new Int16Array(width * height * 3);
  const stride = width * 3;
  for (let i = 0; i < low.length; i++) {
    let min = rowMin[i] as number;
    let max = rowMax[i] as number;
    if (i >= stride) {
      if ((rowMin[i - stride] as number) < min) min = rowMin[i - stride] as number;
      if ((rowMax[i - stride] as number) > max) max = rowMax[i - stride] as number;
    }
    if (i + stride < low.length) {
      if ((rowMin[i + stride] as number) < min) min = rowMin[i + stride] as number;
      if ((rowMax[i + stride] as number) > max) max = rowMax[i + stride] as number;
    }
    low[i] = min - COLOUR;
    high[i] = max + COLOUR;
  }
  return { low, high };
}

/**
 * The pixels of `source` with no match in `target`, along the cheapest elastic row alignment:
 * their count and a mask (1 = unmatched) over `source`.
 */
function unmatchedPixels(source: Image, target: Image, drift: number) {
  const width = Math.min(source.width, target.width);
  const { low, high } = ranges(target);
  const offsets = 2 * drift + 1;
  const rows = source.height;
  const rowBytes = (image: Image, y: number) =>
    image.data.subarray(y * image.width * 4, y * image.width * 4 + width * 4);
  // Counting stops past CAP: such a row is misaligned at that offset whatever the exact count,
  // and misaligned text shows it within a few pixels, so most offsets cost a few steps. The
  // path's pixels are counted exactly afterwards; a capped count can only make the chosen path
  // worse than the best one (a difference reported), never hide one.
  const rowCost = (y: number, targetRow: number): number => {
    if (targetRow < 0 || targetRow >= target.height) return width;
    // The same row in both (most rows, unless the browser changed): every pixel matches itself.
    if (Buffer.compare(rowBytes(source, y), rowBytes(target, targetRow)) === 0) return 0;
    let count = 0;
    const s = y * source.width * 4;
    const t = targetRow * target.width * 3;
    for (let x = 0; x < width; x++) {
      const p = s + x * 4;
      const q = t + x * 3;
      const r = source.data[p] as number;
      const g = source.data[p + 1] as number;
      const b = source.data[p + 2] as number;
      if (
        r < (low[q] as number) ||
        r > (high[q] as number) ||
        g < (low[q + 1] as number) ||
        g > (high[q + 1] as number) ||
        b < (low[q + 2] as number) ||
        b > (high[q + 2] as number)
      ) {
        count++;
        if (count > CAP) return count;
      }
    }
    return count;
  };
  // best[y][k]: the fewest unmatched pixels of rows 0..y with row y read from target row y - d,
  // d = k - drift. Changing the offset costs a pixel, so that identical images stay at d = 0.
  const best = new Float64Array(rows * offsets);
  const from = new Int8Array(rows * offsets);
  let previous = drift; // the cheapest offset of the row before (d = 0 at the start)
  for (let y = 0; y < rows; y++) {
    // A row identical to its counterpart at the offset that served the row before (most rows
    // when little or nothing changed) is as good as a row can be: the other offsets count as
    // beyond CAP instead of being counted (safe as above).
    const same = rowCost(y, y - (previous - drift)) === 0 && y - (previous - drift) >= 0;
    for (let k = 0; k < offsets; k++) {
      const d = k - drift;
      const cost = same ? (k === previous ? 0 : CAP + 1) : rowCost(y, y - d);
      if (y === 0) {
        best[k] = cost + Math.abs(d);
        continue;
      }
      let choice = 0;
      let lowest = Number.POSITIVE_INFINITY;
      for (const step of [0, -1, 1]) {
        const j = k + step;
        if (j < 0 || j >= offsets) continue;
        const value = (best[(y - 1) * offsets + j] as number) + (step === 0 ? 0 : 1);
        if (value < lowest) {
          lowest = value;
          choice = step;
        }
      }
      best[y * offsets + k] = cost + lowest;
      from[y * offsets + k] = choice;
    }
    for (let k = 0; k < offsets; k++)
      if ((best[y * offsets + k] as number) < (best[y * offsets + previous] as number))
        previous = k;
  }
  // Back along the cheapest path, marking the unmatched pixels of each row.
  const mask = new Uint8Array(source.width * source.height);
  if (rows === 0) return { count: 0, mask };
  let k = 0;
  for (let j = 1; j < offsets; j++) {
    if ((best[(rows - 1) * offsets + j] as number) < (best[(rows - 1) * offsets + k] as number))
      k = j;
  }
  let count = 0;
  for (let y = rows - 1; y >= 0; y--) {
    const targetRow = y - (k - drift);
    for (let x = 0; x < source.width; x++) {
      let unmatched = x >= width || targetRow < 0 || targetRow >= target.height;
      if (!unmatched) {
        const p = (y * source.width + x) * 4;
        const q = (targetRow * target.width + x) * 3;
        for (let c = 0; c < 3; c++) {
          const v = source.data[p + c] as number;
          if (v < (low[q + c] as number) || v > (high[q + c] as number)) unmatched = true;
        }
      }
      // Columns beyond the narrower image (at most WIDTH_SLACK) are edges, not content.
      if (unmatched && x < width) {
        mask[y * source.width + x] = 1;
        count++;
      }
    }
    k += from[y * offsets + k] as number;
  }
  return { count, mask };
}

export function compareImages(baseline: Image, actual: Image): Comparison {
  const drift = driftFor(baseline.height);
  const area = Math.max(baseline.width * baseline.height, actual.width * actual.height);
  const allowed = Math.max(MIN_PIXELS, Math.floor(area * RATIO));
  if (Math.abs(baseline.width - actual.width) > WIDTH_SLACK) {
    return {
      unmatched: area,
      allowed,
      difference: `${baseline.width} px wide, now ${actual.width} px`,
      diff: null,
    };
  }
  if (Math.abs(baseline.height - actual.height) > drift) {
    return {
      unmatched: area,
      allowed,
      difference: `${baseline.height} px tall, now ${actual.height} px (${drift} px allowed)`,
      diff: null,
    };
  }
  if (
    baseline.width === actual.width &&
    baseline.height === actual.height &&
    Buffer.compare(baseline.data, actual.data) === 0
  ) {
    return { unmatched: 0, allowed, difference: null, diff: null };
  }
  const added = unmatchedPixels(actual, baseline, drift);
  const removed = unmatchedPixels(baseline, actual, drift);
  const unmatched = Math.max(added.count, removed.count);
  const diff: Image = { width: actual.width, height: actual.height, data: actual.data.slice() };
  for (let i = 0; i < added.mask.length; i++) {
    // Unmatched pixels in red over a faded copy of the actual image.
    const p = i * 4;
    if (added.mask[i]) diff.data.set([255, 0, 0, 255], p);
    else
      for (let c = 0; c < 3; c++) diff.data[p + c] = 255 - ((255 - (diff.data[p + c] ?? 0)) >> 2);
  }
  return {
    unmatched,
    allowed,
    difference:
      unmatched > allowed
        ? `${unmatched} pixels differ (${added.count} new or changed, ${removed.count} gone; ${allowed} allowed)`
        : null,
    diff,
  };
}
