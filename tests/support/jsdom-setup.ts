// jsdom lacks a few browser APIs the components use.
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { loadLanguage } from '../../src/i18n';
import { addFeatureEnglish } from '../../src/i18n/en-features';
import { addLegalEnglish } from '../../src/i18n/en-legal';

// Every language's table loaded before the tests render (the app loads Russian and Spanish on
// demand: src/i18n loadLanguage), so a component rendered in Russian reads Russian at once.
await Promise.all(['ru', 'es'].map(loadLanguage));
// Likewise the English texts that load with the feature chunk and the legal pages.
addFeatureEnglish();
addLegalEnglish();

afterEach(() => cleanup());

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!('ResizeObserver' in window)) {
  (window as any).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
