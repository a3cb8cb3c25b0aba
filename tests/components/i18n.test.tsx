/**
 * The i18n layer: English fallback (with a dev warning) for keys missing in the current
 * language, the key itself when missing everywhere, interpolation, re-render on a language
 * change, <html lang>, and the real locale files wired into the default instance.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { appI18n, createI18n, I18nProvider, useFormat, useLanguage, useT } from '../../src/i18n';
import { InfoChip } from '../../src/components';

const dicts = {
  en: { greet: { hello: 'Hello, {{name}}!' }, only_en: 'Only in English', both: 'Both' },
  ru: { greet: { hello: 'Привет, {{name}}!' }, both: 'Оба' },
};

function Probe({ k, params }: { k: string; params?: Record<string, string | number> }) {
  const t = useT();
  const lang = useLanguage();
  return (
    <p>
      <span data-testid="lang">{lang}</span>
      <span data-testid="text">{t(k, params)}</span>
    </p>
  );
}

describe('createI18n', () => {
  it('translates with parameters in the requested language', () => {
    const i18n = createI18n(dicts, { warn: () => undefined });
    expect(i18n.translate('ru', 'greet.hello', { name: 'Аня' })).toBe('Привет, Аня!');
    expect(i18n.translate('en', 'greet.hello', { name: 'Ann' })).toBe('Hello, Ann!');
  });

  it('falls back to English for a key missing in the language, and warns once', () => {
    const warn = vi.fn();
    const i18n = createI18n(dicts, { warn });
    expect(i18n.translate('ru', 'only_en')).toBe('Only in English');
    expect(i18n.translate('ru', 'only_en')).toBe('Only in English');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('only_en');
  });

  it('returns the key (not an empty string) when it exists nowhere, and for a namespace', () => {
    const warn = vi.fn();
    const i18n = createI18n(dicts, { warn });
    expect(i18n.translate('ru', 'nope.missing')).toBe('nope.missing');
    expect(i18n.translate('en', 'greet')).toBe('greet');
    expect(warn).toHaveBeenCalled();
  });

  it('resolves unknown languages to English', () => {
    const i18n = createI18n(dicts);
    expect(i18n.resolve('de')).toBe('en');
    expect(i18n.resolve(null)).toBe('en');
    expect(i18n.resolve('ru')).toBe('ru');
  });

  it('warns in development through console.warn by default', () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      createI18n(dicts).translate('ru', 'only_en');
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('I18nProvider', () => {
  it('re-renders consumers when the language prop changes and sets <html lang>', () => {
    const i18n = createI18n(dicts, { warn: () => undefined });
    const { rerender } = render(
      <I18nProvider language="en" i18n={i18n}>
        <Probe k="both" />
      </I18nProvider>,
    );
    expect(screen.getByTestId('text').textContent).toBe('Both');
    expect(document.documentElement.lang).toBe('en');
    rerender(
      <I18nProvider language="ru" i18n={i18n}>
        <Probe k="both" />
      </I18nProvider>,
    );
    expect(screen.getByTestId('text').textContent).toBe('Оба');
    expect(screen.getByTestId('lang').textContent).toBe('ru');
    expect(document.documentElement.lang).toBe('ru');
  });

  it('falls back to English inside a Russian tree', () => {
    const i18n = createI18n(dicts, { warn: () => undefined });
    render(
      <I18nProvider language="ru" i18n={i18n}>
        <Probe k="only_en" />
      </I18nProvider>,
    );
    expect(screen.getByTestId('text').textContent).toBe('Only in English');
  });

  it('uses the real locale files by default', () => {
    render(
      <I18nProvider language="es">
        <Probe k="common.copied" />
      </I18nProvider>,
    );
    expect(screen.getByTestId('text').textContent).toBe('Copiado al portapapeles');
    expect(appI18n.languages).toEqual(['en', 'ru', 'es']);
  });

  it('speaks English without a provider', () => {
    render(<Probe k="common.please_login" />);
    expect(screen.getByTestId('text').textContent).toBe('Please login first');
  });

  it('gives formatters for the current language', () => {
    function Fmt() {
      const f = useFormat();
      return <span data-testid="f">{[f.number(1234.5), f.percent(0.82), f.money(5, 'USD')].join('|')}</span>;
    }
    render(
      <I18nProvider language="ru">
        <Fmt />
      </I18nProvider>,
    );
    expect(screen.getByTestId('f').textContent!.replace(/[\u00a0\u202f]/g, ' ')).toBe('1 234,5|82 %|5,00 $');
  });
});

describe('server texts', () => {
  it('shows a known server text in the reader\'s language, and any other sentence as it came, without a warning', () => {
    expect(appI18n.translate('ru', 'Invalid credentials')).toBe('Неверный логин или пароль');
    expect(appI18n.translate('es', 'Insufficient balance')).toBe('Saldo insuficiente');
    expect(appI18n.translate('en', 'Invalid credentials')).toBe('Invalid credentials');
    expect(appI18n.translate('ru', '  Current password is incorrect ')).toBe('Текущий пароль указан неверно');
    const quiet = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(appI18n.translate('ru', 'The provider said something new.')).toBe('The provider said something new.');
      expect(quiet).not.toHaveBeenCalled();
    } finally {
      quiet.mockRestore();
    }
  });

  it('formats money parameters in the language', () => {
    const i18n = createI18n({ en: { won: 'Won {{amount}}' }, ru: { won: 'Выигрыш {{amount}}' } }, { warn: () => undefined });
    expect(i18n.translate('en', 'won', { amount: { money: 1234.5, currency: 'USD' } })).toBe('Won $1,234.50');
    expect(i18n.translate('ru', 'won', { amount: { money: 1234.5, currency: 'USD' } })).toBe('Выигрыш 1\u00a0234,50\u00a0$');
  });

  it('translates an error message an actor hands to the kit', () => {
    render(
      <I18nProvider language="es">
        <InfoChip kind="error">Pair not found</InfoChip>
      </I18nProvider>,
    );
    expect(screen.getByText('Par no encontrado')).toBeTruthy();
  });
});
