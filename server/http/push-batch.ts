/**
 * Pushes grouped per turn of the event loop. The outbox delivers events one by one; a burst
 * (thousands of settlements in a second) would otherwise read one order or one user's balances
 * per event. A Coalescer collects what the events name during one turn (later adds of the same
 * key replace earlier ones, first-add order kept) and hands the lot to `flush` once, on
 * setImmediate, which reads them in one query and pushes per user.
 */
export class Coalescer<K, V = K> {
  private pending = new Map<K, V>();
  private scheduled = false;

  constructor(
    private readonly flush: (items: V[]) => Promise<void> | void,
    private readonly onError: (err: unknown) => void,
  ) {}

  add(key: K, value: V): void {
    this.pending.set(key, value);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      const items = [...this.pending.values()];
      this.pending = new Map();
      this.scheduled = false;
      Promise.resolve()
        .then(() => this.flush(items))
        .catch(this.onError);
    });
  }
}

/** Split `items` into chunks of at most `size` (SQLite's bound-parameter limit). */
export function chunks<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
