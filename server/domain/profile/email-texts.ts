/**
 * The notification emails of the profile's email subscription, in the user's interface
 * language (en, ru, es; English when unknown): a deposit or withdrawal changed status. The
 * status sentence is the Telegram notifier's (telegram-texts.ts), so both channels say the same
 * thing; the mail adds a greeting, where to see the details and how to stop these emails.
 * Plain text, like the other emails.
 */
import type { Language } from '../../../contract/user';
import type { MailMessage } from '../mail';
import { paymentStatusText, type PaymentStatusText } from './telegram-texts';

const BRAND = 'TradeTerminal';

const WORDS: Record<
  Language,
  { hello: (username: string) => string; details: string; optOut: string; signature: string }
> = {
  en: {
    hello: (u) => `Hello ${u},`,
    details: 'Your transaction history:',
    optOut: 'You get these emails because email notifications are on in Profile → Personal information → Notifications. Untick "Email" there to stop them.',
    signature: `The ${BRAND} team`,
  },
  ru: {
    hello: (u) => `Здравствуйте, ${u}!`,
    details: 'История ваших операций:',
    optOut: 'Вы получаете это письмо, потому что в разделе «Профиль → Личные данные → Уведомления» включены уведомления на электронную почту. Чтобы они больше не приходили, снимите там отметку «Эл. почта».',
    signature: `Команда ${BRAND}`,
  },
  es: {
    hello: (u) => `Hola, ${u}:`,
    details: 'Tu historial de transacciones:',
    optOut: 'Recibes este correo porque tienes activadas las notificaciones por correo electrónico en Perfil → Datos personales → Notificaciones. Si no quieres recibirlos, desmarca allí «Correo electrónico».',
    signature: `El equipo de ${BRAND}`,
  },
};

/** The email about a deposit's or withdrawal's new status. */
export function paymentStatusEmail(lang: Language, to: string, p: PaymentStatusText & { username: string; historyUrl: string }): MailMessage {
  const w = WORDS[lang];
  // The subject is the status sentence without the reason (it can be long) and the final stop.
  const subject = paymentStatusText(lang, { ...p, reason: null }).replace(/\.$/, '');
  const text = [w.hello(p.username), '', paymentStatusText(lang, p), '', w.details, p.historyUrl, '', w.optOut, '', w.signature].join('\n');
  return { to, subject, text };
}

const SUPPORT_SESSION: Record<Language, { subject: string; body: string }> = {
  en: {
    subject: 'Our support team opened your account',
    body: 'A member of our support team opened your account in read-only mode to help you. They cannot place orders, deposit or withdraw. If you did not ask for help, reply to this email.',
  },
  ru: {
    subject: 'Служба поддержки открыла ваш счёт',
    body: 'Сотрудник службы поддержки открыл ваш счёт в режиме только для просмотра, чтобы помочь вам. Он не может открывать сделки, пополнять счёт или выводить средства. Если вы не обращались за помощью, ответьте на это письмо.',
  },
  es: {
    subject: 'Nuestro equipo de soporte abrió tu cuenta',
    body: 'Un miembro de nuestro equipo de soporte abrió tu cuenta en modo de solo lectura para ayudarte. No puede abrir operaciones, depositar ni retirar. Si no pediste ayuda, responde a este correo.',
  },
};

/** The email that tells a user an operator opened their account (the console's "open as user"). */
export function supportSessionEmail(lang: Language, to: string, username: string): MailMessage {
  const w = WORDS[lang];
  const s = SUPPORT_SESSION[lang];
  return { to, subject: s.subject, text: [w.hello(username), '', s.body, '', w.optOut, '', w.signature].join('\n') };
}
