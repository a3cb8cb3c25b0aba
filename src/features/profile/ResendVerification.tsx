/**
 * "Resend verification email" beside the unverified-email chip of the profile: sends intent to
 * the `verification` section actor (machines/email-verification/resend-verification.machine.ts)
 * and shows where the email went once it is sent.
 */
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { resendVerificationMachine } from '../../../machines/email-verification/resend-verification.machine';
import { Button } from '../../components';
import { useT } from '../../i18n';

export function ResendVerification({ actor, email }: { actor: ActorRefFrom<typeof resendVerificationMachine>; email: string }) {
  const t = useT();
  const sending = useSelector(actor, (s) => s.matches('sending'));
  const sentTo = useSelector(actor, (s) => (s.matches('sent') ? s.context.email : null));
  return (
    <span className="cluster profile-resend">
      <Button variant="ghost" size="sm" icon="refresh" loading={sending} loadingLabel={t('profile.personal.verification_sending')} onClick={() => actor.send({ type: 'verification.resendRequested', email })}>
        {t('profile.personal.resend_verification')}
      </Button>
      {sentTo ? (
        <span className="text-xs text-muted" role="status">
          {t('profile.personal.verification_sent', { email: sentTo })}
        </span>
      ) : null}
    </span>
  );
}
