/**
 * Registration tracking (spec section 3): the landing address and its UTM values are captured
 * on the first page of the visit (home included), kept through navigation within the tab, and
 * read back when the registration is sent from another page.
 */
import { describe, expect, it } from 'vitest';
import { collectTracking, rememberLanding } from '../../src/features/auth/tracking';

function tab() {
  const data = new Map<string, string>();
  const sessionStorage = {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
  const at = (href: string, referrer = '') =>
    ({ sessionStorage, location: new URL(href), document: { referrer }, navigator: { userAgent: 'TestAgent/1.0' } }) as unknown as Window;
  return { at };
}

describe('registration tracking', () => {
  it('keeps the first page and its UTM values through navigation to the registration form', () => {
    const visit = tab();
    rememberLanding(visit.at('https://trade.example/?utm_source=news&utm_campaign=spring&sub1=a', 'https://search.example/'));
    const tracking = collectTracking(visit.at('https://trade.example/auth?mode=register', 'https://trade.example/'));
    expect(tracking).toMatchObject({
      utm_source: 'news',
      utm_campaign: 'spring',
      sub1: 'a',
      landing_url: 'https://trade.example/?utm_source=news&utm_campaign=spring&sub1=a',
      referrer: 'https://search.example/',
      user_agent: 'TestAgent/1.0',
    });
  });

  it('lets the current page add values the landing page did not carry', () => {
    const visit = tab();
    rememberLanding(visit.at('https://trade.example/'));
    expect(collectTracking(visit.at('https://trade.example/auth?mode=register&click_id=c9'))).toMatchObject({ click_id: 'c9', landing_url: 'https://trade.example/' });
  });
});
