/**
 * Telegram: link the account to the platform's bot for notifications (orders settled, deposits
 * and withdrawals). Connect -> a one-time code and the bot's deep link: open it and press Start;
 * the screen checks every few seconds (or on "Check now") until the bot has linked it, says when
 * the code expired, and offers a new one. Linked: the Telegram account and Disconnect (confirmed).
 */
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { TelegramAccount } from '../../../contract/profile';
import type { telegramMachine } from '../../../machines/telegram/telegram.machine';
import { Button, ConfirmDialog, DateTime, Icon, IconButton, InfoChip, SkeletonText, Spinner } from '../../components';
import { useT } from '../../i18n';
import { useCopy } from '../../shared/hooks';
import { translateText } from '../../shared/form-fields';

type TelegramActor = ActorRefFrom<typeof telegramMachine>;

function accountName(account: TelegramAccount): string {
  return [account.first_name, account.last_name].filter(Boolean).join(' ');
}

function LinkedAccount({ account }: { account: TelegramAccount }) {
  const t = useT();
  return (
    <dl className="profile-facts">
      <div>
        <dt>{t('profile.telegram.account')}</dt>
        <dd>
          {account.username ? <strong>@{account.username}</strong> : null} <span className="text-muted">{accountName(account)}</span>
        </dd>
      </div>
      <div>
        <dt>{t('profile.telegram.telegram_id')}</dt>
        <dd className="tabular">{account.id}</dd>
      </div>
      <div>
        <dt>{t('profile.telegram.linked_since')}</dt>
        <dd>
          <DateTime value={account.linked_at} />
        </dd>
      </div>
    </dl>
  );
}

export function TelegramSection({ actor }: { actor: TelegramActor | undefined }) {
  const t = useT();
  const loading = useSelector(actor, (s) => !s || s.matches('loading'));
  const failed = useSelector(actor, (s) => s?.matches('failed') ?? false);
  const creating = useSelector(actor, (s) => s?.matches('creatingLink') ?? false);
  const waiting = useSelector(actor, (s) => s?.matches('awaitingBot') ?? false);
  const checking = useSelector(actor, (s) => s?.matches({ awaitingBot: 'checking' }) ?? false);
  const linked = useSelector(actor, (s) => (s?.matches('linked') || s?.matches('confirmingUnlink') || s?.matches('unlinking')) ?? false);
  const confirming = useSelector(actor, (s) => (s?.matches('confirmingUnlink') || s?.matches('unlinking')) ?? false);
  const unlinking = useSelector(actor, (s) => s?.matches('unlinking') ?? false);
  const status = useSelector(actor, (s) => s?.context.status ?? null);
  const link = useSelector(actor, (s) => s?.context.link ?? null);
  const error = useSelector(actor, (s) => s?.context.error ?? null);

  const copy = useCopy();

  if (loading || !actor) return <SkeletonText lines={3} />;
  if (failed) {
    return (
      <InfoChip
        kind="error"
        live
        action={
          <Button size="sm" icon="refresh" onClick={() => actor.send({ type: 'telegram.retryRequested' })}>
            {t('common.retry')}
          </Button>
        }
      >
        {translateText(t, error)}
      </InfoChip>
    );
  }

  return (
    <div className="stack">
      <div className="profile-row">
        <div className="stack stack-sm">
          <div className="cluster">
            <Icon name="telegram" size={20} />
            <InfoChip kind={linked ? 'success' : waiting ? 'warning' : 'info'} compact>
              {linked ? t('profile.telegram.linked') : waiting ? t('profile.telegram.waiting') : t('profile.telegram.not_linked')}
            </InfoChip>
          </div>
          <p className="text-sm text-muted">{linked ? t('profile.telegram.linked_hint') : t('profile.telegram.intro')}</p>
        </div>
        {linked ? (
          <Button variant="secondary" onClick={() => actor.send({ type: 'telegram.unlinkRequested' })}>
            {t('profile.telegram.disconnect')}
          </Button>
        ) : waiting ? null : (
          <Button variant="primary" icon="telegram" loading={creating} loadingLabel={t('profile.telegram.connecting')} onClick={() => actor.send({ type: 'telegram.linkRequested' })}>
            {t('profile.telegram.connect')}
          </Button>
        )}
      </div>

      {error && !confirming ? (
        <InfoChip kind={error === 'profile.telegram.code_expired' ? 'warning' : 'error'} live>
          {translateText(t, error)}
        </InfoChip>
      ) : null}

      {linked && status?.telegram ? <LinkedAccount account={status.telegram} /> : null}

      {waiting && link ? (
        <div className="profile-telegram-link panel">
          <ol className="profile-steps">
            <li>
              <p className="profile-step-title">{t('profile.telegram.step_open')}</p>
              <a className="btn btn-primary btn-md" href={link.deep_link} target="_blank" rel="noopener noreferrer">
                <Icon name="external" size={18} />
                <span className="btn-label">{t('profile.telegram.open_bot')}</span>
              </a>
            </li>
            <li>
              <p className="profile-step-title">{t('profile.telegram.step_code')}</p>
              <div className="profile-secret-row">
                <code className="profile-secret" data-testid="telegram-code">
                  /start {link.code}
                </code>
                <IconButton icon="copy" size="sm" label={t('profile.telegram.copy_code')} onClick={() => void copy(`/start ${link.code}`)} />
              </div>
              <span className="text-xs text-muted">
                {t('profile.telegram.code_valid')} <DateTime value={link.expires_at} format="HH:mm" />
              </span>
            </li>
          </ol>
          <div className="profile-row">
            <span className="cluster text-sm text-muted" role="status">
              <Spinner size={16} decorative />
              {t('profile.telegram.waiting_hint')}
            </span>
            <div className="cluster">
              <Button size="sm" variant="secondary" icon="refresh" loading={checking} onClick={() => actor.send({ type: 'telegram.checkRequested' })}>
                {t('profile.telegram.check_now')}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => actor.send({ type: 'telegram.linkRequested' })}>
                {t('profile.telegram.new_code')}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => actor.send({ type: 'telegram.linkCancelled' })}>
                {t('common.cancel')}
              </Button>
            </div>
          </div>
        </div>
      ) : null}

      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => (open ? undefined : actor.send({ type: 'telegram.unlinkCancelled' }))}
        title={t('profile.telegram.disconnect_title')}
        message={t('profile.telegram.disconnect_message')}
        confirmLabel={t('profile.telegram.disconnect')}
        loadingLabel={t('profile.telegram.disconnecting')}
        confirmVariant="danger"
        loading={unlinking}
        error={confirming && error ? translateText(t, error) : null}
        onConfirm={() => actor.send({ type: 'telegram.unlinkConfirmed' })}
      />
    </div>
  );
}
