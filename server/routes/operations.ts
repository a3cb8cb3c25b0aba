/**
 * Operations (docs/operations.md): the scheduled backup's timer, started once the server
 * listens and stopped (waiting for a backup in progress) when it closes.
 */
import type { ServerModule } from '../context';

export const operationsModule: ServerModule = {
  name: 'operations',
  start(ctx) {
    ctx.services.backups?.start();
  },
  async stop(ctx) {
    await ctx.services.backups?.stop();
  },
};
