/**
 * The texts of the authentication emails (verification, password reset) in the user's
 * interface language (en, ru, es; English when unknown). Plain text on purpose: it reads the
 * same in every client and in the console outbox.
 */
import type { Language } from '../../../contract/user';
import type { MailMessage } from '../mail';

const BRAND = 'TradeTerminal';

export function pickLanguage(value: string | null | undefined): Language {
  return value === 'ru' || value === 'es' ? value : 'en';
}

export function verificationEmail(lang: Language, to: string, p: { username: string; link: string; hours: number }): MailMessage {
  const texts: Record<Language, { subject: string; body: string[] }> = {
    en: {
      subject: 'Confirm your email address',
      body: [
        `Hello ${p.username},`,
        '',
        `Thank you for registering with ${BRAND}. Please confirm your email address by opening this link:`,
        p.link,
        '',
        `The link is valid for ${p.hours} hours. If you did not create an account, ignore this email.`,
      ],
    },
    ru: {
      subject: 'Подтвердите адрес электронной почты',
      body: [
        `Здравствуйте, ${p.username}!`,
        '',
        `Спасибо за регистрацию в ${BRAND}. Чтобы подтвердить адрес электронной почты, перейдите по ссылке:`,
        p.link,
        '',
        `Ссылка действует ${p.hours} часов. Если вы не регистрировались, просто проигнорируйте это письмо.`,
      ],
    },
    es: {
      subject: 'Confirma tu dirección de correo electrónico',
      body: [
        `Hola, ${p.username}:`,
        '',
        `Gracias por registrarte en ${BRAND}. Para confirmar tu dirección de correo electrónico, abre este enlace:`,
        p.link,
        '',
        `El enlace es válido durante ${p.hours} horas. Si no creaste una cuenta, ignora este correo.`,
      ],
    },
  };
  const t = texts[lang];
  return { to, subject: t.subject, text: t.body.join('\n') };
}

export function resetEmail(lang: Language, to: string, p: { username: string; code: string; link: string }): MailMessage {
  const texts: Record<Language, { subject: string; body: string[] }> = {
    en: {
      subject: 'Your password reset code',
      body: [
        `Hello ${p.username},`,
        '',
        `We received a request to reset your ${BRAND} password.`,
        '',
        `Your reset code: ${p.code}`,
        '',
        'Or open this link to choose a new password:',
        p.link,
        '',
        'The code and the link are valid for 1 hour and work once. If you did not ask for a reset, ignore this email: your password stays the same.',
      ],
    },
    ru: {
      subject: 'Код для сброса пароля',
      body: [
        `Здравствуйте, ${p.username}!`,
        '',
        `Мы получили запрос на сброс пароля в ${BRAND}.`,
        '',
        `Ваш код для сброса: ${p.code}`,
        '',
        'Или перейдите по ссылке, чтобы задать новый пароль:',
        p.link,
        '',
        'Код и ссылка действуют 1 час, воспользоваться ими можно один раз. Если вы не запрашивали сброс, просто проигнорируйте это письмо — ваш пароль останется прежним.',
      ],
    },
    es: {
      subject: 'Tu código para restablecer la contraseña',
      body: [
        `Hola, ${p.username}:`,
        '',
        `Hemos recibido una solicitud para restablecer tu contraseña de ${BRAND}.`,
        '',
        `Tu código: ${p.code}`,
        '',
        'O abre este enlace para elegir una nueva contraseña:',
        p.link,
        '',
        'El código y el enlace son válidos durante 1 hora y solo se pueden usar una vez. Si no lo solicitaste, ignora este correo: tu contraseña no cambiará.',
      ],
    },
  };
  const t = texts[lang];
  return { to, subject: t.subject, text: t.body.join('\n') };
}
