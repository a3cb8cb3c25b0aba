/**
 * Counter-based random numbers for the simulator. A draw is a pure function of
 * (seed, key, counter, lane): no generator state to save, so a restarted simulator that knows a
 * pair's last tick number produces exactly the draws it would have produced without the restart,
 * and two simulators with the same seed agree tick for tick.
 *
 * The mixer is MurmurHash3's 32-bit finaliser applied once per input word; it is a bijection with
 * full avalanche, which is plenty for Monte Carlo prices (this is not cryptography).
 */

const TWO_32 = 4294967296;

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** 32-bit hash of a string (FNV-1a, then the finaliser): the per-pair key of the draws. */
export function hashKey(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/** Fold a (possibly > 32-bit) non-negative integer seed into 32 bits without losing its high part. */
function fold(n: number): number {
  const lo = n >>> 0;
  const hi = Math.floor(n / TWO_32) >>> 0;
  return fmix32(lo ^ fmix32(hi + 0x9e3779b9));
}

/** A uniform 32-bit word for (seed, key, counter, lane). */
export function word32(seed: number, key: number, counter: number, lane: number): number {
  let h = fold(seed);
  h = fmix32(h ^ key);
  h = fmix32(h ^ (counter >>> 0));
  h = fmix32(h ^ (Math.floor(counter / TWO_32) >>> 0) ^ Math.imul(lane + 1, 0x27d4eb2f));
  return fmix32(h + 0x165667b1);
}

/** A uniform number in the open interval (0, 1). */
export function uniform(seed: number, key: number, counter: number, lane: number): number {
  return (word32(seed, key, counter, lane) + 0.5) / TWO_32;
}

/**
 * A standard normal draw (Box-Muller over two lanes). Lanes 2k and 2k+1 belong to stream k, so
 * independent streams of the same pair (live ticks, backfilled history) never share words.
 */
export function normal(seed: number, key: number, counter: number, stream = 0): number {
  const u1 = uniform(seed, key, counter, stream * 2);
  const u2 = uniform(seed, key, counter, stream * 2 + 1);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
