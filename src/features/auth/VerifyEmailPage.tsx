/**
 * /verify-email?token=...: confirms the address from the emailed link and says so. The page
 * runs the emailVerification machine with the real `verifyEmail` actor from the services.
 */
import { useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Link, useSearch } from 'wouter';
import { Button, InfoChip, Spinner } from '../../components';
import { useT } from '../../i18n';
import { useRuntime } from '../../shared/runtime';
import { useSessionStatus } from '../../shared/hooks';
import { emailVerificationLogic } from '../../services/flows';
import { AuthLayout } from './AuthLayout';
import { translateText } from '../../shared/form-fields';

export function VerifyEmailPage() {
  const t = useT();
  const { services } = useRuntime();
  const token = new URLSearchParams(useSearch()).get('token');
  const logic = useMemo(() => emailVerificationLogic(services.api), [services.api]);
  const actor = useActorRef(logic, { input: { token } });
  const state = useSelector(actor, (s) => s.value);
  const error = useSelector(actor, (s) => s.context.error);
  const status = useSessionStatus();
  const next = status === 'authenticated' ? '/trading' : '/auth';
  return (
    <AuthLayout title={t('auth.verify_email_title')}>
      <div className="stack">
        {state === 'verifying' || state === 'checking' ? <Spinner label={t('auth.verifying')} /> : null}
        {state === 'verified' ? (
          <InfoChip kind="success" live>
            {t('auth.email_verified')}
          </InfoChip>
        ) : null}
        {state === 'failed' ? (
          <>
            <InfoChip kind="error" live>
              {translateText(t, error)}
            </InfoChip>
            <Button variant="secondary" onClick={() => actor.send({ type: 'emailVerification.retried' })}>
              {t('common.retry')}
            </Button>
          </>
        ) : null}
        <Link href={next} className="btn btn-primary btn-md btn-block">
          {status === 'authenticated' ? t('nav.trading') : t('auth.log_in')}
        </Link>
      </div>
    </AuthLayout>
  );
}
