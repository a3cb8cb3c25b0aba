/**
 * Contact details printed in the legal pages. The operator sets VITE_SUPPORT_EMAIL and
 * VITE_PRIVACY_EMAIL at build time; the defaults match the server's default mail domain.
 */
import { APP_CONFIG } from '../../shared/app-config';

export const SUPPORT_EMAIL: string = APP_CONFIG.links.supportEmail;
export const PRIVACY_EMAIL: string = import.meta.env.VITE_PRIVACY_EMAIL || SUPPORT_EMAIL;

/** Date of the current version of both documents (local calendar date). */
export const LEGAL_UPDATED = new Date(2026, 10, 22);
