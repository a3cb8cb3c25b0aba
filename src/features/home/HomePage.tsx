/**
 * The public landing page at "/": the value proposition, calls to action (create an account
 * at /auth?mode=register, log in at /auth, or go to trading when signed in), the four
 * feature highlights, how it works, the sections that are coming, and the risk warning.
 * The shell hides its header for visitors, so the page brings its own top bar and footer;
 * `headerExtras` is where the shell puts the language menu.
 */
import { useEffect, type ReactNode } from 'react';
import { Link } from 'wouter';
import { DEMO_BALANCE_UNITS } from '../../../contract/currencies';
import { Icon, type IconName } from '../../components/Icon';
import { InfoChip } from '../../components/InfoChip';
import { PublicFooter, PublicTopBar } from '../../components/PublicChrome';
import { useFormat, useT } from '../../i18n';
import '../../components/Button.css';
import './HomePage.css';

export type HomePageProps = {
  isAuthenticated?: boolean;
  headerExtras?: ReactNode;
};

const FEATURES: Array<{ icon: IconName; title: string; text: string }> = [
  { icon: 'chart', title: 'home.features.charts_title', text: 'home.features.charts_text' },
  { icon: 'wallet', title: 'home.features.demo_title', text: 'home.features.demo_text' },
  { icon: 'bolt', title: 'home.features.payouts_title', text: 'home.features.payouts_text' },
  { icon: 'globe', title: 'home.features.languages_title', text: 'home.features.languages_text' },
];

const STEPS = [
  { title: 'home.steps.one_title', text: 'home.steps.one_text' },
  { title: 'home.steps.two_title', text: 'home.steps.two_text' },
  { title: 'home.steps.three_title', text: 'home.steps.three_text' },
];

const COMING: Array<{ icon: IconName; label: string; developing?: boolean }> = [
  { icon: 'users', label: 'nav.top_traders' },
  { icon: 'stats', label: 'nav.statistics' },
  { icon: 'trophy', label: 'nav.tournaments' },
  { icon: 'gift', label: 'nav.bonuses' },
  { icon: 'book', label: 'nav.education' },
  { icon: 'calendar', label: 'nav.calendar' },
  { icon: 'bot', label: 'nav.trading_bots', developing: true },
  { icon: 'tag', label: 'nav.promo_codes' },
];

export function HomePage({ isAuthenticated = false, headerExtras }: HomePageProps) {
  const t = useT();
  const format = useFormat();
  const demoAmount = format.money(DEMO_BALANCE_UNITS, 'USD', { decimals: 0 });

  useEffect(() => {
    document.title = t('home.meta_title');
  }, [t]);

  // Signed in, the shell supplies the header and the <main> landmark; signed out, the page does.
  const Main = isAuthenticated ? 'div' : 'main';
  return (
    <div className="home">
      {isAuthenticated ? null : <PublicTopBar extras={headerExtras} />}
      <Main id={isAuthenticated ? undefined : 'main'} className="home-main">
        <section className="home-hero" aria-labelledby="home-hero-title">
          <div className="container home-hero-inner">
            <div className="home-hero-copy">
              <p className="home-eyebrow">{t('home.eyebrow')}</p>
              <h1 id="home-hero-title" className="home-hero-title">
                {t('home.hero_title')}
              </h1>
              <p className="home-hero-subtitle">{t('home.hero_subtitle')}</p>
              <div className="home-cta">
                {isAuthenticated ? (
                  <Link href="/trading" className="btn btn-primary btn-lg">
                    {t('home.cta_trading')}
                    <Icon name="chevron" direction="right" size={20} />
                  </Link>
                ) : (
                  <>
                    <Link href="/auth?mode=register" className="btn btn-primary btn-lg">
                      {t('home.cta_register')}
                    </Link>
                    <Link href="/auth" className="btn btn-secondary btn-lg">
                      {t('home.cta_login')}
                    </Link>
                  </>
                )}
              </div>
              <p className="home-demo-note">
                <Icon name="shield" size={18} />
                <span>{t('home.demo_note', { amount: demoAmount })}</span>
              </p>
            </div>
            <HeroChart label={t('home.chart_caption')} />
          </div>
        </section>

        <section className="container home-section" aria-labelledby="home-features-title">
          <h2 id="home-features-title" className="home-section-title">
            {t('home.features_title')}
          </h2>
          <ul className="home-features">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="home-card">
                <span className="home-card-icon">
                  <Icon name={feature.icon} size={24} />
                </span>
                <h3 className="home-card-title">{t(feature.title, { amount: demoAmount })}</h3>
                <p className="home-card-text">{t(feature.text)}</p>
              </li>
            ))}
          </ul>
        </section>

        <section className="container home-section" aria-labelledby="home-steps-title">
          <h2 id="home-steps-title" className="home-section-title">
            {t('home.steps_title')}
          </h2>
          <ol className="home-steps">
            {STEPS.map((step, i) => (
              <li key={step.title} className="home-step">
                <span className="home-step-number tabular" aria-hidden="true">
                  {i + 1}
                </span>
                <div>
                  <h3 className="home-card-title">{t(step.title)}</h3>
                  <p className="home-card-text">{t(step.text)}</p>
                </div>
              </li>
            ))}
          </ol>
        </section>

        <section className="container home-section" aria-labelledby="home-soon-title">
          <h2 id="home-soon-title" className="home-section-title">
            {t('home.soon_title')}
          </h2>
          <p className="home-section-lead">{t('home.soon_text')}</p>
          <ul className="home-soon">
            {COMING.map((item) => (
              <li key={item.label} className="home-soon-item">
                <Icon name={item.icon} size={22} />
                <span className="home-soon-text">
                  <span className="home-soon-label">{t(item.label)}</span>
                  <span className="home-soon-badge">{item.developing ? t('nav.under_development') : t('nav.coming_soon')}</span>
                </span>
              </li>
            ))}
          </ul>
        </section>

        <section className="container home-section" aria-labelledby="home-risk-title">
          <h2 id="home-risk-title" className="visually-hidden">
            {t('home.risk_title')}
          </h2>
          <InfoChip kind="warning" title={t('home.risk_title')} className="home-risk">
            <p>{t('home.risk_text')}</p>
            <p className="home-risk-links">
              <Link href="/rules">{t('nav.rules')}</Link>
              {' · '}
              <Link href="/privacy">{t('nav.privacy')}</Link>
            </p>
          </InfoChip>
        </section>
      </Main>
      <PublicFooter />
    </div>
  );
}

/**
 * A drawn (not live) candle chart for the hero: fixed candles rising to the right with an
 * "Up" marker, coloured by the gain/loss tokens.
 */
const CANDLES: Array<[open: number, close: number, high: number, low: number]> = [
  [62, 58, 64, 55],
  [58, 61, 63, 56],
  [61, 55, 62, 52],
  [55, 57, 60, 53],
  [57, 52, 58, 49],
  [52, 56, 57, 50],
  [56, 60, 62, 55],
  [60, 58, 61, 54],
  [58, 63, 65, 57],
  [63, 61, 66, 59],
  [61, 67, 69, 60],
  [67, 65, 70, 63],
  [65, 71, 73, 64],
  [71, 69, 74, 67],
  [69, 75, 78, 68],
  [75, 79, 81, 73],
];

function HeroChart({ label }: { label: string }) {
  const width = 420;
  const height = 260;
  const step = width / (CANDLES.length + 2);
  // Prices 46..84 fill the height with a small margin.
  const y = (price: number) => height - ((price - 46) / 38) * height;
  const last = CANDLES[CANDLES.length - 1];
  return (
    <figure className="home-hero-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} preserveAspectRatio="xMidYMid meet">
        {[0.25, 0.5, 0.75].map((f) => (
          <line key={f} className="hero-grid" x1="0" x2={width} y1={height * f} y2={height * f} />
        ))}
        {CANDLES.map(([open, close, high, low], i) => {
          const x = step * (i + 1);
          const up = close >= open;
          return (
            <g key={i} className={up ? 'hero-candle-up' : 'hero-candle-down'}>
              <line x1={x} x2={x} y1={y(high)} y2={y(low)} className="hero-wick" />
              <rect x={x - step * 0.3} width={step * 0.6} y={y(Math.max(open, close))} height={Math.max(2, Math.abs(y(open) - y(close)))} rx="1.5" />
            </g>
          );
        })}
        <line className="hero-price-line" x1="0" x2={width} y1={y(last[1])} y2={y(last[1])} />
        <g className="hero-marker" transform={`translate(${step * CANDLES.length + 14} ${y(last[1]) - 14})`}>
          <rect width="28" height="28" rx="6" />
          <path d="M14 20V8M8 14l6-6 6 6" />
        </g>
      </svg>
    </figure>
  );
}
