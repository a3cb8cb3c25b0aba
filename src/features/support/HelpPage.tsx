/**
 * The Help page (/help, issue 27 item 6): a searchable FAQ anyone can read, the support mail
 * link, and for a signed-in trader their tickets (list, new ticket, the thread with answers
 * arriving live: SupportTickets). Every text is a locale key; ticket texts from people are
 * rendered as React text, never as markup.
 */
import { useDeferredValue, useId, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { PublicTopBar, TextField } from '../../components';
import { useT } from '../../i18n';
import { FAQ_KEYS, faqMatches } from './support-text';
import { SupportTickets } from './SupportTickets';
import { addFeatureEnglish } from '../../i18n/en-features';
import './support.css';

// The Help page is public: a visitor who is not signed in has not loaded the features' English texts.
addFeatureEnglish();

function Faq({ supportEmail }: { supportEmail: string }) {
  const t = useT();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const headingId = useId();
  const shown = FAQ_KEYS.filter((k) => faqMatches(t(`support.faq.${k}.q`), t(`support.faq.${k}.a`), deferred));
  return (
    <section className="help-faq panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('support.faq_title')}</h2>
      <TextField label={t('support.faq_search')} type="search" placeholder={t('support.faq_search_placeholder')} value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
      {shown.length === 0 ? (
        <p className="help-faq-none" role="status">
          {t('support.faq_none')}
        </p>
      ) : (
        <div className="help-faq-list">
          {shown.map((k) => (
            <details key={k} className="help-faq-item" data-faq={k}>
              <summary>{t(`support.faq.${k}.q`)}</summary>
              <p>{t(`support.faq.${k}.a`)}</p>
            </details>
          ))}
        </div>
      )}
      <p className="help-mail">
        {t('support.mail_prefer')} <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
      </p>
    </section>
  );
}

/** `supportEmail`: the support mail address (the app passes the legal pages' contact). */
export function HelpPage({ signedIn, supportEmail, headerExtras }: { signedIn: boolean; supportEmail: string; headerExtras?: ReactNode }) {
  const t = useT();
  const body = (
    <div className="help-page container">
      <header className="help-header">
        <h1>{t('support.title')}</h1>
        <p>{t('support.intro')}</p>
      </header>
      <div className="help-grid">
        {signedIn ? (
          <SupportTickets />
        ) : (
          <section className="help-tickets panel">
            <h2>{t('support.tickets_title')}</h2>
            <p>{t('support.sign_in_for_tickets')}</p>
            <Link href="/auth" className="btn btn-primary">
              {t('support.sign_in')}
            </Link>
          </section>
        )}
        <Faq supportEmail={supportEmail} />
      </div>
    </div>
  );
  if (signedIn) return body;
  return (
    <>
      <PublicTopBar extras={headerExtras} />
      <main id="main">{body}</main>
    </>
  );
}

export default HelpPage;
