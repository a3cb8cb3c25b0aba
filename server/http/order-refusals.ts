/**
 * Why an order was refused, as the metrics' label (server/infra/metrics.ts REFUSAL_REASONS): a
 * fixed set read from the domain error, never the message itself.
 */
import { ErrorText } from '../../contract/envelope';
import { OrderErrorText } from '../../contract/orders';
import { Forbidden, InvalidInput, NotFound, RateLimited, Unauthenticated } from '../domain/errors';
import type { RefusalReason } from '../infra/metrics';

export function refusalReason(err: unknown): RefusalReason {
  if (!(err instanceof Error)) return 'other';
  if (err.message === ErrorText.insufficientBalance) return 'insufficient_balance';
  if (err.message === OrderErrorText.riskLimit) return 'risk_limit';
  if (err.message === OrderErrorText.quotesDelayed || err.message === OrderErrorText.priceUnavailable) return 'market_closed';
  if (err.message === OrderErrorText.requestIdReused) return 'duplicate';
  if (err instanceof NotFound) return 'pair_unavailable';
  if (err instanceof InvalidInput) return 'invalid';
  if (err instanceof Unauthenticated) return 'unauthenticated';
  if (err instanceof Forbidden) return 'forbidden';
  if (err instanceof RateLimited) return 'rate_limited';
  return 'other';
}
