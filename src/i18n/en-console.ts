/**
 * The operator console's English texts (the `console` namespace), in the console's chunk only:
 * src/console/main.tsx adds them before the console renders. The trader's pages never load
 * them (the same en.json as a part, scripts/vite-locale-part.ts). Russian and Spanish load
 * whole when chosen (index.tsx).
 */
import { console as consoleTexts } from '../../locales/en.json?part=console';
import { addEnglish } from './index';

export function addConsoleEnglish(): void {
  addEnglish({ console: consoleTexts });
}
