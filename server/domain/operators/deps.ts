/**
 * What the operators area needs (OperatorsService, built in server/composition.ts and by the
 * CLI): the database, a write transaction, the clock, and the SecretBox that seals TOTP secrets.
 */
import type { DB, RunTx } from '../../db';
import type { DomainLog } from '../log';
import type { SecretBox } from '../profile/secret-box';

export interface OperatorsDeps {
  db: DB;
  tx: RunTx;
  now: () => number;
  box: Pick<SecretBox, 'seal' | 'open'>;
  log: Pick<DomainLog, 'error'>;
}
