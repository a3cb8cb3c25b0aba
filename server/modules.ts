/** The server's area modules, in start order. */
import type { ServerModule } from './context';
import { coreModule } from './routes/core';

export function defaultModules(): ServerModule[] {
  return [coreModule];
}
