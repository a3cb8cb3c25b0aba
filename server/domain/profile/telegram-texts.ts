/**
 * What the Telegram bot says, in the user's language (en, ru, es; English when unknown): the
 * replies to /start and the notifications about closed orders and payment status changes.
 * Plain text on purpose (no Markdown to escape): it reads the same in the app and in the outbox.
 */
import type { Language } from '../../../contract/user';
import { pickLanguage } from '../auth/emails';

/** The user's interface language when set, else the Telegram app's (ru-RU -> ru), else English. */
export function telegramLanguage(interfaceLanguage: string | null | undefined, telegramLanguageCode: string | null | undefined): Language {
  if (interfaceLanguage === 'en' || interfaceLanguage === 'ru' || interfaceLanguage === 'es') return interfaceLanguage;
  return pickLanguage((telegramLanguageCode ?? '').slice(0, 2).toLowerCase());
}

export const botReplies: Record<Language, { linked: (username: string) => string; expired: string; help: string; privateOnly: string; unlinked: string }> = {
  en: {
    linked: (u) =>
      `Telegram is connected to your TradeTerminal account ${u}. You will get messages here when your orders close and when your deposits and withdrawals change status.`,
    expired: 'Link code expired. Open Profile → Telegram on the website and connect again.',
    help: 'To get notifications here, open Profile → Telegram on the TradeTerminal website and press "Connect Telegram".',
    privateOnly: 'Please open the link in a private chat with the bot.',
    unlinked: 'Telegram is disconnected from your TradeTerminal account. You will not get notifications here any more.',
  },
  ru: {
    linked: (u) =>
      `Telegram подключён к вашему аккаунту TradeTerminal ${u}. Сюда будут приходить уведомления о закрытии сделок и об изменении статуса пополнений и выводов.`,
    expired: 'Срок действия кода привязки истёк. Откройте «Профиль → Telegram» на сайте и подключите Telegram снова.',
    help: 'Чтобы получать уведомления здесь, откройте «Профиль → Telegram» на сайте TradeTerminal и нажмите «Подключить Telegram».',
    privateOnly: 'Откройте ссылку в личном чате с ботом.',
    unlinked: 'Telegram отключён от вашего аккаунта TradeTerminal. Уведомления сюда больше приходить не будут.',
  },
  es: {
    linked: (u) =>
      `Telegram está conectado a tu cuenta de TradeTerminal ${u}. Aquí recibirás avisos cuando se cierren tus operaciones y cuando cambie el estado de tus depósitos y retiros.`,
    expired: 'El código de vinculación ha caducado. Abre Perfil → Telegram en el sitio web y vuelve a conectar.',
    help: 'Para recibir avisos aquí, abre Perfil → Telegram en el sitio web de TradeTerminal y pulsa «Conectar Telegram».',
    privateOnly: 'Abre el enlace en un chat privado con el bot.',
    unlinked: 'Telegram se ha desconectado de tu cuenta de TradeTerminal. Ya no recibirás avisos aquí.',
  },
};

export interface SettledOrderText {
  id: number;
  pair: string;
  direction: 'up' | 'down';
  account: 'real' | 'demo';
  result: 'won' | 'lost' | 'tie' | 'closed';
  /** Decimal strings with the currency's decimals. */
  stake: string;
  payout: string;
  currency: string;
}

export function orderSettledText(lang: Language, o: SettledOrderText): string {
  const s = `${o.stake} ${o.currency}`;
  const p = `${o.payout} ${o.currency}`;
  if (lang === 'ru') {
    const head = `Сделка №${o.id} ${o.pair} (${o.direction === 'up' ? 'вверх' : 'вниз'}, ${o.account === 'real' ? 'реальный счёт' : 'демо-счёт'})`;
    switch (o.result) {
      case 'won':
        return `${head} закрыта с прибылью. Ставка ${s}, выплата ${p}.`;
      case 'lost':
        return `${head} закрыта с убытком. Ставка ${s}.`;
      case 'tie':
        return `${head} закрыта по цене открытия, ставка ${s} возвращена.`;
      case 'closed':
        return `${head} закрыта досрочно. Ставка ${s}, выплачено ${p}.`;
    }
  }
  if (lang === 'es') {
    const head = `La operación n.º ${o.id} ${o.pair} (${o.direction === 'up' ? 'sube' : 'baja'}, ${o.account === 'real' ? 'cuenta real' : 'cuenta demo'})`;
    switch (o.result) {
      case 'won':
        return `${head} se cerró con ganancia. Inversión: ${s}; pago: ${p}.`;
      case 'lost':
        return `${head} se cerró con pérdida. Inversión: ${s}.`;
      case 'tie':
        return `${head} se cerró al precio de apertura; se te devolvió la inversión de ${s}.`;
      case 'closed':
        return `${head} se cerró anticipadamente. Inversión: ${s}; pagado: ${p}.`;
    }
  }
  const head = `Order #${o.id} ${o.pair} (${o.direction}, ${o.account === 'real' ? 'real account' : 'demo account'})`;
  switch (o.result) {
    case 'won':
      return `${head} closed with a profit. Stake ${s}, payout ${p}.`;
    case 'lost':
      return `${head} closed with a loss. Stake ${s}.`;
    case 'tie':
      return `${head} closed at the opening price; your stake of ${s} was returned.`;
    case 'closed':
      return `${head} was closed early. Stake ${s}, paid out ${p}.`;
  }
}

export interface PaymentStatusText {
  id: number;
  type: 'deposit' | 'withdrawal';
  status: string;
  /** Decimal string with the currency's decimals. */
  amount: string;
  currency: string;
  reason: string | null;
}

const PAYMENT_WORDS: Record<Language, { deposit: string; withdrawal: string; statuses: Record<string, string>; reason: string }> = {
  en: {
    deposit: 'Deposit',
    withdrawal: 'Withdrawal',
    statuses: {
      pending: 'is pending',
      processing: 'is being processed',
      approved: 'is completed',
      failed: 'failed',
      expired: 'expired',
      cancelled: 'was cancelled',
    },
    reason: 'Reason',
  },
  ru: {
    deposit: 'Пополнение',
    withdrawal: 'Вывод',
    statuses: {
      pending: 'ожидает обработки',
      processing: 'в обработке',
      approved: 'операция выполнена',
      failed: 'операция не выполнена',
      expired: 'срок оплаты истёк',
      cancelled: 'операция отменена',
    },
    reason: 'Причина',
  },
  es: {
    deposit: 'Depósito',
    withdrawal: 'Retiro',
    statuses: {
      pending: 'pendiente',
      processing: 'en proceso',
      approved: 'completado',
      failed: 'fallido',
      expired: 'caducado',
      cancelled: 'cancelado',
    },
    reason: 'Motivo',
  },
};

export function paymentStatusText(lang: Language, t: PaymentStatusText): string {
  const w = PAYMENT_WORDS[lang];
  const type = t.type === 'deposit' ? w.deposit : w.withdrawal;
  const status = w.statuses[t.status] ?? t.status;
  const amount = `${t.amount} ${t.currency}`;
  const head =
    lang === 'ru'
      ? `${type} №${t.id} на сумму ${amount}: ${status}.`
      : lang === 'es'
        ? `${type} n.º ${t.id} por ${amount}: ${status}.`
        : `${type} #${t.id} of ${amount} ${status}.`;
  return t.reason && (t.status === 'failed' || t.status === 'cancelled') ? `${head} ${w.reason}: ${t.reason}` : head;
}
