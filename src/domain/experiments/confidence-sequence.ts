// The always-valid interval behind the experiment verdicts (decision 0088): a two-sided
// normal-mixture confidence sequence (Howard, Ramdas, McAuliffe & Sekhon 2021, eq. (14); the same
// boundary as the mixture SPRT of Johari, Pekelis & Walsh 2017). Its error rate holds however often
// and whenever the team looks, unlike a fixed-sample interval read every day.

/**
 * The mixture is tuned for this many exposed visitors per group: the interval is tightest, compared
 * with a fixed-sample one, around there, and stays valid before and after.
 */
export const MIXING_VISITORS = 1_000;

/**
 * Half-width of the always-valid interval for an estimate whose variance is `variance` now, when the
 * variance of one visitor's contribution (the same quantity at one visitor per group) is
 * `unitVariance`. With the mixing variance τ² = unitVariance / MIXING_VISITORS and V = variance:
 *
 *     half-width = √( V · (1 + V/τ²) · ( 2·ln(1/α) + ln(1 + τ²/V) ) )
 *
 * which is Howard et al.'s √((t + m)(ln(1 + t/m) + 2 ln(1/α))) divided by t, in units of one
 * visitor's standard deviation, with t visitors per group and m = MIXING_VISITORS.
 */
export function halfWidth(variance: number, unitVariance: number, alpha: number): number {
  if (!(variance > 0) || !(unitVariance > 0)) return 0;
  const mixing = unitVariance / MIXING_VISITORS;
  const ratio = variance / mixing;
  return Math.sqrt(variance * (1 + ratio) * (2 * Math.log(1 / alpha) + Math.log(1 + 1 / ratio)));
}

/**
 * The variance of one visitor's conversion, from a proportion smoothed by one success and one
 * failure (Laplace): never zero, so a group without purchases yet still gets an honest width.
 */
export function conversionVariance(purchased: number, exposed: number): number {
  const p = (purchased + 1) / (exposed + 2);
  return p * (1 - p);
}

/** The smallest n ≥ 1 with `fits(n)`, for a `fits` that turns true once n is large enough. */
export function smallestFitting(fits: (n: number) => boolean, limit = 1e12): number | null {
  let high = 1;
  while (!fits(high)) {
    high *= 2;
    if (high > limit) return null;
  }
  let low = Math.floor(high / 2);
  if (low < 1) return high;
  // fits(low) is false, fits(high) true.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) high = middle;
    else low = middle;
  }
  return high;
}
