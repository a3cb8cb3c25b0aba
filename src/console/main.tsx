/**
 * The operator console's entry (issue 27), loaded by src/main.tsx only for /admin and /admin/*:
 * a chunk of its own, so the trader's first paint never carries it and the trader's root actor
 * (session, socket, balances) never exists on a console page. It adds the console's English
 * texts, creates the console's root actor (services/console-actors.ts) and renders.
 */
import { createRoot } from 'react-dom/client';
import { addConsoleEnglish } from '../i18n/en-console';
import { ConsoleApp } from './ConsoleApp';
import { createConsoleRuntime } from './services/console-actors';

export function startConsole(container: HTMLElement): void {
  addConsoleEnglish();
  const runtime = createConsoleRuntime();
  container.replaceChildren();
  container.removeAttribute('data-prerendered');
  createRoot(container).render(<ConsoleApp runtime={runtime} />);
}
