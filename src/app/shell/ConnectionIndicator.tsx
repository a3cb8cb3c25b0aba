/**
 * A small indicator of the connection: first the session's (the stored session kept while the
 * server could not be reached at start, with a retry now), then the live feed's: nothing when
 * live, a note while reconnecting, a retry when it gave up.
 */
import { useSelector } from '@xstate/react';
import { Button } from '../../components';
import { useT } from '../../i18n';
import { useConnectionState } from '../../shared/hooks';
import { useSessionActor, useSocketActor } from '../../shared/runtime';
import './shell.css';

export function ConnectionIndicator() {
  const t = useT();
  const state = useConnectionState();
  const socket = useSocketActor();
  const session = useSessionActor();
  const sessionReconnecting = useSelector(session, (s) => s.matches({ loggedIn: { server: 'reconnecting' } }));
  if (sessionReconnecting) {
    return (
      <div className="connection-indicator connection-reconnecting" role="status">
        <span className="connection-dot" aria-hidden="true" />
        {/* Phones show the short form; the whole sentence stays for screen readers. */}
        <span className="connection-long visually-hidden-tablet">{t('shell.session_reconnecting')}</span>
        <span className="connection-short" aria-hidden="true">
          {t('common.reconnecting')}
        </span>
        <Button size="sm" variant="secondary" className="connection-retry-now" onClick={() => session.send({ type: 'session.reconnectRequested' })}>
          {t('shell.session_retry_now')}
        </Button>
      </div>
    );
  }
  if (state === 'live' || state === 'idle') return null;
  if (state === 'offline') {
    return (
      <div className="connection-indicator connection-offline" role="status">
        <span>{t('shell.connection_offline')}</span>
        <Button size="sm" variant="secondary" onClick={() => socket.send({ type: 'socket.retryRequested' })}>
          {t('common.retry')}
        </Button>
      </div>
    );
  }
  return (
    <div className="connection-indicator connection-reconnecting" role="status">
      <span className="connection-dot" aria-hidden="true" />
      <span>{t('shell.connection_reconnecting')}</span>
    </div>
  );
}
