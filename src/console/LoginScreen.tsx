/**
 * The operator's login: username and password, then the authenticator code (the second factor
 * is mandatory). The session machine holds the steps; this view only sends what was typed.
 */
import { useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import { Button, InfoChip, PasswordField, TextField } from '../components';
import { useT } from '../i18n';
import { LanguageSelect } from './parts/LanguageSelect';
import { useSession } from './runtime';

export function LoginScreen() {
  const t = useT();
  const session = useSession();
  const step = useSelector(session, (s) => (s.matches('signingIn') ? 'busy' : s.matches({ signedOut: 'code' }) ? 'code' : 'credentials'));
  const error = useSelector(session, (s) => s.context.error);
  const notice = useSelector(session, (s) => s.context.notice);
  const username = useSelector(session, (s) => s.context.username);
  const [name, setName] = useState(username);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');

  const submitCredentials = (event: FormEvent) => {
    event.preventDefault();
    session.send({ type: 'operator.credentialsEntered', username: name, password });
    setPassword('');
  };
  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    session.send({ type: 'operator.codeEntered', code });
    setCode('');
  };

  return (
    <main className="console-login" id="main">
      <div className="console-login-card">
        <div className="console-login-top">
          <h1>{t('console.login.title')}</h1>
          <LanguageSelect />
        </div>
        <p className="console-muted">{t('console.login.subtitle')}</p>
        {notice ? <InfoChip kind="warning" live>{t(notice)}</InfoChip> : null}
        {error ? (
          <InfoChip kind="error" live>
            {t(error)}
          </InfoChip>
        ) : null}
        {step === 'credentials' ? (
          <form className="console-form" onSubmit={submitCredentials} noValidate>
            <TextField label={t('console.login.username')} name="username" autoComplete="username" value={name} onChange={(e) => setName(e.currentTarget.value)} autoFocus />
            <PasswordField label={t('console.login.password')} name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
            <Button type="submit" variant="primary">
              {t('console.login.next')}
            </Button>
          </form>
        ) : (
          <form className="console-form" onSubmit={submitCode} noValidate>
            <h2 className="console-h3">{t('console.login.code_title')}</h2>
            <p className="console-muted">{t('console.login.code_hint', { name: username })}</p>
            <TextField
              label={t('console.login.code')}
              name="totp"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              autoFocus
              disabled={step === 'busy'}
            />
            <div className="console-row">
              <Button type="button" variant="ghost" onClick={() => session.send({ type: 'operator.backRequested' })} disabled={step === 'busy'}>
                {t('console.login.back')}
              </Button>
              <Button type="submit" variant="primary" loading={step === 'busy'}>
                {t('console.login.submit')}
              </Button>
            </div>
          </form>
        )}
      </div>
    </main>
  );
}
