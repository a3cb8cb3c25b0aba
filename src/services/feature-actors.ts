/**
 * The real implementations of the logged-in features, by child id of the app machine (see
 * machines/app/features.ts): the live socket (socket.ts, socket.io-client), trading, money,
 * profile and trader tools. This module is the feature chunk: the composition root
 * (src/app/create-app-actor.ts) imports it dynamically when a session opens, so /auth and the
 * public pages never load it.
 */
import type { FeatureLogic } from '../../machines/app/features';
import { socketMachine } from '../../machines/socket/socket.machine';
import { chartSetupMachine } from '../../machines/chart-setup/chart-setup.machine';
import type { ServiceDeps } from './actors';
import { tradingImplementations } from './trading-actors';
import { profileImplementations } from './profile-actors';
import { moneyImplementations } from './money-actors';
import { traderToolsImplementations } from './trader-tools-actors';
import { supportImplementations } from './support-actors';
import { createSocketConnection } from './socket';

export function featureImplementations(deps: ServiceDeps): FeatureLogic {
  return {
    ...tradingImplementations(deps),
    ...profileImplementations(deps),
    ...moneyImplementations(deps),
    ...traderToolsImplementations(deps),
    ...supportImplementations(deps),
    // Chart setups are kept in the user's settings: the machine needs no effect of its own.
    chartSetup: chartSetupMachine,
    socket: socketMachine.provide({
      actors: { socketConnection: createSocketConnection({ url: deps.socketUrl }) },
    }),
  };
}
