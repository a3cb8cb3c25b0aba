/** A small indicator of the live feed: nothing when live, a note while reconnecting, a retry when it gave up. */
import { Button } from '../../components';
import { useT } from '../../i18n';
import { useConnectionState } from '../hooks';
import { useSocketActor } from '../runtime';
import './shell.css';

export function ConnectionIndicator() {
  const t = useT();
  const state = useConnectionState();
  const socket = useSocketActor();
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
