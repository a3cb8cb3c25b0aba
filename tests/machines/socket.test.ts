/**
 * Socket: generated paths, plus the timing rules of spec sections 4 and 9 (reconnect backoff
 * 1, 2, 4, 8, 16 s then failed after 5 attempts, capped at 30 s; ping every 30 s; get_userdata
 * 100 ms after provide_token), re-subscription on reconnect and the offline queue, against a
 * fake connection actor under fake timers.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromCallback, type AnyEventObject } from 'xstate';
import { reconnectDelayFor, socketMachine, SOCKET_MAX_ATTEMPTS, type SocketConnectionEvent, type SocketEmitEvent } from '../../machines/socket/socket.machine';
import { assertFullCoverage, pathCases, printCoverage, replayPath, startUnderParent, type PathModel } from './harness';

const events: AnyEventObject[] = [
  { type: 'socket.tokenChanged', token: 't1' },
  { type: 'socket.tokenChanged', token: 't2' },
  { type: 'socket.tokenChanged', token: null },
  { type: 'socket.connected' },
  { type: 'socket.disconnected', reason: 'transport close' },
  { type: 'socket.connectFailed', message: 'timeout' },
  { type: 'socket.messageReceived', event: 'pong', payload: { time: 1 } },
  { type: 'socket.emitRequested', event: 'select_pair', payload: { pair_code: 'EURUSD', timeframe: '1m' } },
  { type: 'socket.emitRequested', event: 'get_payment_methods', payload: { currency: 'USD' } },
  { type: 'socket.emitRequested', event: 'ping' },
  { type: 'socket.retryRequested' },
  { type: 'socket.pongReceived', time: 1 },
];

const model: PathModel = {
  name: 'socket',
  machine: socketMachine,
  events,
  // The attempt counter makes the loop-free routes many thousands; the first 400 are plenty.
  simplePaths: 400,
  simplePathEvents: [
    { type: 'socket.tokenChanged', token: 't1' },
    { type: 'socket.tokenChanged', token: null },
    { type: 'socket.connected' },
    { type: 'socket.connectFailed', message: 'timeout' },
    { type: 'socket.retryRequested' },
  ],
};

describe('socket machine paths', () => {
  afterAll(printCoverage);
  it.each(pathCases(model))('%s', (_, path) => {
    replayPath(model, path);
  });
  it('reaches every state and takes every transition', () => assertFullCoverage('socket'));
});

/** A connection actor the test drives: it records what it was asked to emit. */
function fakeConnection() {
  const state = {
    emitted: [] as Array<{ event: string; payload?: unknown; at: number }>,
    opened: [] as string[],
    closed: 0,
    report: (_event: SocketConnectionEvent) => {},
  };
  const logic = fromCallback<SocketEmitEvent, { token: string }>(({ input, sendBack, receive }) => {
    state.opened.push(input.token);
    state.report = (event) => sendBack(event);
    receive((event) => state.emitted.push({ event: event.event, payload: event.payload, at: Date.now() }));
    return () => {
      state.closed += 1;
    };
  });
  return { state, logic };
}

function start() {
  const connection = fakeConnection();
  const { actor, parentEvents } = startUnderParent(socketMachine.provide({ actors: { socketConnection: connection.logic } }));
  return { actor, parentEvents, connection: connection.state };
}

describe('socket timing and subscriptions', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => vi.useRealTimers());

  it('computes the backoff: 1 s doubling, capped at 30 s', () => {
    expect([1, 2, 3, 4, 5].map(reconnectDelayFor)).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(reconnectDelayFor(6)).toBe(30000);
    expect(reconnectDelayFor(12)).toBe(30000);
  });

  it('reconnects after 1, 2, 4, 8 and 16 s, then gives up after 5 attempts until a retry', () => {
    const { actor, connection } = start();
    actor.send({ type: 'socket.tokenChanged', token: 'tok' });
    connection.report({ type: 'socket.connected' });
    expect(actor.getSnapshot().hasTag('live')).toBe(true);
    connection.report({ type: 'socket.disconnected', reason: 'transport close' });

    const waits: number[] = [];
    for (let attempt = 1; attempt <= SOCKET_MAX_ATTEMPTS; attempt++) {
      expect(actor.getSnapshot().value).toBe('waitingToReconnect');
      expect(actor.getSnapshot().hasTag('reconnecting')).toBe(true);
      expect(actor.getSnapshot().context.attempt).toBe(attempt);
      const opened = connection.opened.length;
      const before = Date.now();
      while (connection.opened.length === opened) vi.advanceTimersByTime(100);
      waits.push(Date.now() - before);
      expect(actor.getSnapshot().value).toEqual({ connection: 'reconnecting' });
      connection.report({ type: 'socket.connectFailed', message: 'refused' });
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.lastError).toBe('refused');
    vi.advanceTimersByTime(120_000);
    expect(connection.opened.length).toBe(6);

    actor.send({ type: 'socket.retryRequested' });
    expect(actor.getSnapshot().value).toEqual({ connection: 'connecting' });
    expect(actor.getSnapshot().context.attempt).toBe(0);
    expect(connection.opened.length).toBe(7);
  });

  it('resets the attempts after a successful reconnect', () => {
    const { actor, connection } = start();
    actor.send({ type: 'socket.tokenChanged', token: 'tok' });
    connection.report({ type: 'socket.connectFailed', message: 'x' });
    vi.advanceTimersByTime(1000);
    connection.report({ type: 'socket.connectFailed', message: 'y' });
    expect(actor.getSnapshot().context.attempt).toBe(2);
    vi.advanceTimersByTime(2000);
    connection.report({ type: 'socket.connected' });
    expect(actor.getSnapshot().context).toMatchObject({ attempt: 0, lastError: null });
    connection.report({ type: 'socket.disconnected', reason: 'io server disconnect' });
    expect(actor.getSnapshot().context.attempt).toBe(1);
  });

  it('sends provide_token at once, get_userdata 100 ms later and ping every 30 s', () => {
    const { actor, connection } = start();
    actor.send({ type: 'socket.tokenChanged', token: 'tok' });
    expect(connection.opened).toEqual(['tok']);
    connection.report({ type: 'socket.connected' });
    expect(connection.emitted).toEqual([{ event: 'provide_token', payload: { token: 'tok' }, at: 0 }]);
    vi.advanceTimersByTime(99);
    expect(connection.emitted.map((e) => e.event)).toEqual(['provide_token']);
    vi.advanceTimersByTime(1);
    expect(connection.emitted[1]).toEqual({ event: 'get_userdata', payload: { token: 'tok' }, at: 100 });
    vi.advanceTimersByTime(90_000);
    const pings = connection.emitted.filter((e) => e.event === 'ping').map((e) => e.at);
    expect(pings).toEqual([30_100, 60_100, 90_100]);
  });

  it('forwards incoming messages to its parent', () => {
    const { actor, connection, parentEvents } = start();
    actor.send({ type: 'socket.tokenChanged', token: 'tok' });
    connection.report({ type: 'socket.connected' });
    connection.report({ type: 'socket.messageReceived', event: 'update_balances', payload: { balances: {} } });
    expect(parentEvents).toEqual([{ type: 'socket.messageReceived', event: 'update_balances', payload: { balances: {} } }]);
  });

  it('re-sends the last select_pair (with the current token) on every reconnect and flushes requests queued offline', () => {
    const { actor, connection } = start();
    actor.send({ type: 'socket.emitRequested', event: 'select_pair', payload: { pair_code: 'EURUSD', timeframe: '1m' } });
    actor.send({ type: 'socket.emitRequested', event: 'get_payment_methods', payload: { currency: 'EUR' } });
    actor.send({ type: 'socket.emitRequested', event: 'ping' });
    actor.send({ type: 'socket.tokenChanged', token: 'tok' });
    connection.report({ type: 'socket.connected' });
    expect(connection.emitted.map((e) => [e.event, e.payload])).toEqual([
      ['provide_token', { token: 'tok' }],
      ['select_pair', { pair_code: 'EURUSD', timeframe: '1m', token: 'tok' }],
      ['get_payment_methods', { currency: 'EUR' }],
    ]);
    actor.send({ type: 'socket.emitRequested', event: 'select_pair', payload: { pair_code: 'BTCUSD', timeframe: '5m' } });
    expect(connection.emitted.at(-1)).toMatchObject({ event: 'select_pair', payload: { pair_code: 'BTCUSD', timeframe: '5m', token: 'tok' } });

    connection.emitted.length = 0;
    connection.report({ type: 'socket.disconnected', reason: 'transport close' });
    vi.advanceTimersByTime(1000);
    connection.report({ type: 'socket.connected' });
    expect(connection.emitted.map((e) => [e.event, e.payload])).toEqual([
      ['provide_token', { token: 'tok' }],
      ['select_pair', { pair_code: 'BTCUSD', timeframe: '5m', token: 'tok' }],
    ]);
  });

  it('closes the socket when the token goes and re-introduces itself when the token is refreshed', () => {
    const { actor, connection } = start();
    actor.send({ type: 'socket.tokenChanged', token: 'old' });
    connection.report({ type: 'socket.connected' });
    actor.send({ type: 'socket.tokenChanged', token: 'new' });
    expect(connection.opened).toEqual(['old']);
    expect(connection.emitted.at(-1)).toMatchObject({ event: 'provide_token', payload: { token: 'new' } });
    actor.send({ type: 'socket.tokenChanged', token: null });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(connection.closed).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect(connection.opened).toEqual(['old']);
  });
});
