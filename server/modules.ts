/** The server's area modules, in start order. */
import type { ServerModule } from './context';
import { coreModule } from './routes/core';
import { authModule } from './routes/auth';
import { settingsModule } from './routes/settings';
import { marketModule } from './routes/market';
import { ordersModule } from './routes/orders';
import { paymentsModule } from './routes/payments';
import { profileModule } from './routes/profile';
import { traderToolsModule } from './routes/trader-tools';
import { operationsModule } from './routes/operations';
import { consoleModule } from './routes/console';
import { supportModule } from './routes/support';
import { consoleSupportModule } from './routes/console-support';

export function defaultModules(): ServerModule[] {
  return [coreModule(), authModule, settingsModule, marketModule(), ordersModule, paymentsModule, profileModule, traderToolsModule, operationsModule, consoleModule, supportModule, consoleSupportModule];
}
