/**
 * The profile screen's hooks: opening the profile flow for as long as the screen is shown (the
 * app spawns the section actors and stops them when it closes), reaching each section's actor,
 * the current address hash, and the reference lists the personal form offers (countries named in
 * the user's language, IANA time zones with their current offset).
 */
import { useEffect, useMemo } from 'react';
import { useSelector } from '@xstate/react';
import { useLocationProperty } from 'wouter/use-browser-location';
import { COUNTRY_CODES } from '../../../contract/profile';
import { useAppActor, useChild } from '../../shared/runtime';
import { intlLocale } from '../../i18n/format';

/** Opens the profile flow on mount and closes it on unmount; the flow actor once it exists. */
export function useProfileFlow() {
  const app = useAppActor();
  useEffect(() => {
    app.send({ type: 'flow.profileOpened' });
    return () => app.send({ type: 'flow.profileClosed' });
  }, [app]);
  return useChild('profilePage');
}

type ProfilePageRef = NonNullable<ReturnType<typeof useProfileFlow>>;
type SectionRefs = ReturnType<ProfilePageRef['getSnapshot']>['children'];

/** One section's actor (undefined until the flow has spawned it). */
export function useSection<K extends keyof SectionRefs>(page: ProfilePageRef | undefined, id: K): SectionRefs[K] | undefined {
  return useSelector(page, (s) => s?.children[id]);
}

/** The address hash without '#', following pushState navigations too ("" when none). */
export function useHash(): string {
  const hash = useLocationProperty(() => window.location.hash);
  return decodeURIComponent(hash.replace(/^#/, ''));
}

export interface Choice {
  value: string;
  label: string;
}

/** Every ISO country, named in the interface language and sorted by that name. */
export function useCountryChoices(language: string): Choice[] {
  return useMemo(() => {
    const locale = intlLocale(language);
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([locale], { type: 'region' });
    } catch {
      names = null;
    }
    const collator = new Intl.Collator(locale);
    return COUNTRY_CODES.map((code) => ({ value: code, label: names?.of(code) ?? code })).sort((a, b) => collator.compare(a.label, b.label));
  }, [language]);
}

function offsetOf(zone: string, at: Date): string {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName');
    return part?.value.replace('GMT', 'UTC') ?? '';
  } catch {
    return '';
  }
}

/** IANA time zones this browser knows (plus UTC), each with its current UTC offset. */
export function useTimeZoneChoices(): Choice[] {
  return useMemo(() => {
    const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    const now = new Date();
    const all = zones.includes('UTC') ? zones : ['UTC', ...zones];
    return all.map((zone) => {
      const offset = offsetOf(zone, now);
      return { value: zone, label: offset && offset !== 'UTC' ? `${zone.replace(/_/g, ' ')} (${offset})` : zone.replace(/_/g, ' ') };
    });
  }, []);
}

/** The browser's own time zone, offered as a one-click choice. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}
