/**
 * The layout shared by the privacy policy and the terms: title, date, intro, a table of
 * contents linking to every section, the sections, and a link to the other document.
 *
 * Section bodies live in the locale files as plain text with a tiny format: a blank line
 * separates paragraphs, lines that start with "- " form a bulleted list, and the contact
 * address (passed as {{email}}) becomes a mailto link.
 */
import { Fragment, useEffect, type ReactNode } from 'react';
import { Link } from 'wouter';
import { Icon } from '../../components/Icon';
import { PublicFooter, PublicTopBar } from '../../components/PublicChrome';
import { useFormat, useT } from '../../i18n';
import { addLegalEnglish } from '../../i18n/en-legal';
import { LEGAL_UPDATED } from './contacts';
import './LegalDocument.css';

// The legal texts load with this page, not with the first one.
addLegalEnglish();

export type LegalDocumentProps = {
  /** Locale namespace of the document: 'legal.privacy' or 'legal.rules'. */
  ns: string;
  /** Section keys in reading order (each has .title and .body in the locale files). */
  sections: readonly string[];
  email: string;
  other: { href: string; label: string };
  isAuthenticated?: boolean;
  headerExtras?: ReactNode;
};

export const sectionId = (key: string) => key.replace(/_/g, '-');

type Block = { kind: 'p'; text: string } | { kind: 'ul'; items: string[] };

/** Paragraphs and bullet lists from the locale text format. */
export function parseLegalBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  for (const chunk of text.split(/\n\s*\n/)) {
    let list: string[] | null = null;
    for (const raw of chunk.split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      if (line.startsWith('- ')) {
        if (!list) {
          list = [];
          blocks.push({ kind: 'ul', items: list });
        }
        list.push(line.slice(2));
      } else {
        list = null;
        blocks.push({ kind: 'p', text: line });
      }
    }
  }
  return blocks;
}

function withEmail(text: string, email: string): ReactNode {
  if (!email || !text.includes(email)) return text;
  const parts = text.split(email);
  return parts.map((part, i) => (
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 ? <a href={`mailto:${email}`}>{email}</a> : null}
    </Fragment>
  ));
}

export function LegalDocument({ ns, sections, email, other, isAuthenticated = false, headerExtras }: LegalDocumentProps) {
  const t = useT();
  const format = useFormat();
  const title = t(`${ns}.title`);
  const appName = t('common.app_name');

  useEffect(() => {
    document.title = `${title} · ${appName}`;
  }, [title, appName]);

  const Main = isAuthenticated ? 'div' : 'main';
  return (
    <div className="legal">
      {isAuthenticated ? null : <PublicTopBar extras={headerExtras} />}
      <Main id={isAuthenticated ? undefined : 'main'} className="container legal-layout">
        <article className="legal-article" aria-labelledby="legal-title">
          <header className="legal-header">
            <p className="legal-back">
              <Link href="/">
                <Icon name="chevron" direction="left" size={16} />
                {t('legal.back_home')}
              </Link>
            </p>
            <h1 id="legal-title" tabIndex={-1}>
              {title}
            </h1>
            <p className="legal-updated">{t('legal.last_updated', { date: format.date(LEGAL_UPDATED) })}</p>
            <p className="legal-intro">{t(`${ns}.intro`)}</p>
          </header>

          <nav className="legal-toc" aria-labelledby="legal-toc-title">
            <h2 id="legal-toc-title" className="legal-toc-title">
              {t('legal.toc')}
            </h2>
            <ol>
              {sections.map((key) => (
                <li key={key}>
                  <a href={`#${sectionId(key)}`}>{t(`${ns}.sections.${key}.title`)}</a>
                </li>
              ))}
            </ol>
          </nav>

          {sections.map((key, index) => (
            <section key={key} id={sectionId(key)} className="legal-section" aria-labelledby={`${sectionId(key)}-title`}>
              <h2 id={`${sectionId(key)}-title`} tabIndex={-1}>
                <span className="legal-section-number tabular" aria-hidden="true">
                  {index + 1}.
                </span>{' '}
                {t(`${ns}.sections.${key}.title`)}
              </h2>
              {parseLegalBlocks(t(`${ns}.sections.${key}.body`, { email })).map((block, i) =>
                block.kind === 'p' ? (
                  <p key={i}>{withEmail(block.text, email)}</p>
                ) : (
                  <ul key={i}>
                    {block.items.map((item, j) => (
                      <li key={j}>{withEmail(item, email)}</li>
                    ))}
                  </ul>
                ),
              )}
              <p className="legal-top-link">
                <a href="#legal-title">
                  <Icon name="chevron" direction="up" size={14} />
                  {t('legal.back_to_top')}
                </a>
              </p>
            </section>
          ))}

          <footer className="legal-see-also">
            <span>{t('legal.see_also')}: </span>
            <Link href={other.href}>{other.label}</Link>
          </footer>
        </article>
      </Main>
      <PublicFooter />
    </div>
  );
}
