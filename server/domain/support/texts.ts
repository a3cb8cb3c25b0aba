/**
 * What a support answer says in Telegram and email, in the trader's language (en, ru, es). The
 * message itself is never copied into the notification (it may be long or private): the trader
 * reads it in the app.
 */
import type { Language } from '../../../contract/user';
import type { MailMessage } from '../mail';

export interface SupportReplyText {
  ticketId: number;
  subject: string;
  link: string;
}

const LINES: Record<Language, (a: SupportReplyText) => string> = {
  en: (a) => `💬 Support answered your ticket #${a.ticketId} "${a.subject}".`,
  ru: (a) => `💬 Поддержка ответила на ваше обращение №${a.ticketId} «${a.subject}».`,
  es: (a) => `💬 Soporte ha respondido a tu ticket n.º ${a.ticketId} «${a.subject}».`,
};

const MAIL: Record<Language, { subject: (a: SupportReplyText) => string; hello: (u: string) => string; read: string; why: string; signature: string }> = {
  en: {
    subject: (a) => `Support answered ticket #${a.ticketId}`,
    hello: (u) => `Hello ${u},`,
    read: 'Read the answer and reply in the app:',
    why: 'You get this email because email notifications are on in Profile → Personal information → Notifications.',
    signature: 'The TradeTerminal team',
  },
  ru: {
    subject: (a) => `Поддержка ответила на обращение №${a.ticketId}`,
    hello: (u) => `Здравствуйте, ${u}!`,
    read: 'Прочитайте ответ и ответьте в приложении:',
    why: 'Письмо пришло, потому что в разделе «Профиль → Личные данные → Уведомления» включены уведомления на электронную почту.',
    signature: 'Команда TradeTerminal',
  },
  es: {
    subject: (a) => `Soporte ha respondido al ticket n.º ${a.ticketId}`,
    hello: (u) => `Hola, ${u}:`,
    read: 'Lee la respuesta y contesta en la aplicación:',
    why: 'Recibes este correo porque tienes activadas las notificaciones por correo en Perfil → Datos personales → Notificaciones.',
    signature: 'El equipo de TradeTerminal',
  },
};

export function supportReplyLine(lang: Language, a: SupportReplyText): string {
  return LINES[lang](a);
}

export function supportReplyEmail(lang: Language, to: string, username: string, a: SupportReplyText): MailMessage {
  const w = MAIL[lang];
  return { to, subject: w.subject(a), text: [w.hello(username), '', LINES[lang](a), '', w.read, a.link, '', w.why, '', w.signature].join('\n') };
}
