/**
 * What a fired price alert says in Telegram and email, in the owner's language (en, ru, es).
 * The Telegram line and the email's first line are the same sentence.
 */
import type { Language } from '../../../contract/user';
import type { MailMessage } from '../mail';

export interface FiredAlertText {
  pair: string;
  direction: 'above' | 'below';
  level: string;
  price: string;
}

const LINES: Record<Language, (a: FiredAlertText) => string> = {
  en: (a) => `🔔 ${a.pair} is ${a.direction === 'above' ? 'above' : 'below'} ${a.level}: the price is ${a.price}.`,
  ru: (a) => `🔔 ${a.pair} ${a.direction === 'above' ? 'поднялся выше' : 'опустился ниже'} ${a.level}: цена ${a.price}.`,
  es: (a) => `🔔 ${a.pair} ${a.direction === 'above' ? 'ha subido por encima de' : 'ha bajado por debajo de'} ${a.level}: el precio es ${a.price}.`,
};

const MAIL: Record<Language, { subject: (a: FiredAlertText) => string; hello: (u: string) => string; why: string; signature: string }> = {
  en: {
    subject: (a) => `Price alert: ${a.pair} ${a.direction} ${a.level}`,
    hello: (u) => `Hello ${u},`,
    why: 'You set this alert on the chart. It fires once; set a new one on the trading screen. You get this email because email notifications are on in Profile → Personal information → Notifications.',
    signature: 'The TradeTerminal team',
  },
  ru: {
    subject: (a) => `Ценовое оповещение: ${a.pair} ${a.direction === 'above' ? 'выше' : 'ниже'} ${a.level}`,
    hello: (u) => `Здравствуйте, ${u}!`,
    why: 'Вы установили это оповещение на графике. Оно срабатывает один раз; новое можно поставить на экране торговли. Письмо пришло, потому что в разделе «Профиль → Личные данные → Уведомления» включены уведомления на электронную почту.',
    signature: 'Команда TradeTerminal',
  },
  es: {
    subject: (a) => `Alerta de precio: ${a.pair} ${a.direction === 'above' ? 'por encima de' : 'por debajo de'} ${a.level}`,
    hello: (u) => `Hola, ${u}:`,
    why: 'Creaste esta alerta en el gráfico. Salta una sola vez; puedes crear otra en la pantalla de trading. Recibes este correo porque tienes activadas las notificaciones por correo en Perfil → Datos personales → Notificaciones.',
    signature: 'El equipo de TradeTerminal',
  },
};

export function firedAlertLine(lang: Language, a: FiredAlertText): string {
  return LINES[lang](a);
}

export function firedAlertEmail(lang: Language, to: string, username: string, a: FiredAlertText): MailMessage {
  const w = MAIL[lang];
  return { to, subject: w.subject(a), text: [w.hello(username), '', LINES[lang](a), '', w.why, '', w.signature].join('\n') };
}
