/**
 * The price model shared by the live simulator and the backfilled history: the log price is an
 * Ornstein-Uhlenbeck process around the log of the pair's reference price. Over minutes and hours
 * it behaves as geometric Brownian motion with the pair's annualised volatility (what traders and
 * the early-close pricing expect); over weeks the slow mean reversion keeps prices sane.
 */

export const SECONDS_PER_YEAR = 365.25 * 86_400;
/** Half-life of a deviation from the reference price. */
export const MEAN_REVERSION_HALF_LIFE_DAYS = 20;
/** Mean-reversion speed per year. */
export const KAPPA = Math.LN2 / (MEAN_REVERSION_HALF_LIFE_DAYS / 365.25);
/** The longest step the model takes at once (a restart after a long downtime moves at most a day's worth). */
export const MAX_STEP_SECONDS = 86_400;

/**
 * One exact OU step of the log price over `dtSeconds` with the standard normal draw `z`.
 * The same formula walks backwards in time: a stationary OU process is time-reversible.
 */
export function stepLogPrice(x: number, xRef: number, sigma: number, dtSeconds: number, z: number): number {
  const dt = Math.min(Math.max(dtSeconds, 0), MAX_STEP_SECONDS) / SECONDS_PER_YEAR;
  if (dt === 0) return x;
  const decay = Math.exp(-KAPPA * dt);
  const sd = sigma * Math.sqrt((1 - decay * decay) / (2 * KAPPA));
  return xRef + (x - xRef) * decay + sd * z;
}

/** Standard deviation of the log-price change over `dtSeconds` (what tests and pricing call "one sigma"). */
export function logSigma(sigma: number, dtSeconds: number): number {
  const dt = Math.min(Math.max(dtSeconds, 0), MAX_STEP_SECONDS) / SECONDS_PER_YEAR;
  const decay = Math.exp(-KAPPA * dt);
  return sigma * Math.sqrt((1 - decay * decay) / (2 * KAPPA));
}
