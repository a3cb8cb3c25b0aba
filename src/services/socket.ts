/**
 * The live socket as the socket machine's `socketConnection` callback actor: one socket.io
 * connection (websocket transport only, same origin, a fresh manager each time, no automatic
 * reconnection: the machine owns the backoff). It reports `socket.connected`,
 * `socket.disconnected` {reason}, `socket.connectFailed` {message} and every incoming event as
 * `socket.messageReceived` {event, payload}; it emits what the machine sends it as
 * `socket.emitRequested` {event, payload}. Stopping the actor closes the socket.
 */
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { fromCallback } from 'xstate';
import type { SocketConnectionEvent, SocketConnectionInput, SocketEmitEvent } from '../../machines/socket/socket.machine';

export interface SocketConnectionOptions {
  /** Absolute address of the server; same origin when omitted (the SPA). */
  url?: string;
  /** socket.io's own connect timeout (ms). */
  timeout?: number;
  /** For tests: another socket.io-client `io`. */
  connect?: (uri: string | undefined, options: Partial<ManagerOptions & SocketOptions>) => Socket;
}

export function createSocketConnection(options: SocketConnectionOptions = {}) {
  return fromCallback<SocketEmitEvent, SocketConnectionInput>(({ sendBack, receive }) => {
    const report = (event: SocketConnectionEvent) => sendBack(event);
    const connect = options.connect ?? ((uri, opts) => (uri === undefined ? io(opts) : io(uri, opts)));
    const socket = connect(options.url, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      timeout: options.timeout ?? 10_000,
    });

    socket.on('connect', () => report({ type: 'socket.connected' }));
    socket.on('disconnect', (reason) => report({ type: 'socket.disconnected', reason: String(reason) }));
    socket.on('connect_error', (error) => report({ type: 'socket.connectFailed', message: error?.message || 'connect_error' }));
    socket.onAny((event: string, payload: unknown) => report({ type: 'socket.messageReceived', event, payload }));

    receive((event) => {
      if (event.type !== 'socket.emitRequested') return;
      if (event.payload === undefined) socket.emit(event.event);
      else socket.emit(event.event, event.payload);
    });

    return () => {
      // Our own close must not be reported as a drop.
      socket.removeAllListeners();
      socket.offAny();
      socket.disconnect();
    };
  });
}
