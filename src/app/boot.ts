/**
 * The app's side of the boot script that index.html and auth.html carry in <head>
 * (scripts/vite-prerender.ts). Until the app has started, that script stops a native submit of
 * the prerendered /auth form (it would send the password in the address) and keeps the form
 * aside. `markAppStarted` runs once the page's content is hydrated (src/app/routes.tsx):
 *   - what the visitor typed into the prerendered form before then is handed to the form's
 *     handlers (an input event per filled field: React saw the typed text as the field's
 *     starting value, so the form's state would otherwise stay empty);
 *   - <html data-app> is set (the guard steps aside);
 *   - a submit the guard held back is carried out, once, through the app.
 */
export const PENDING_SUBMIT = '__ttPendingSubmit';

function adoptTypedValues(win: Window & typeof globalThis): void {
  const root = win.document.querySelector('#root[data-prerendered]');
  if (!root) return;
  root.removeAttribute('data-prerendered');
  const setValue = Object.getOwnPropertyDescriptor(win.HTMLInputElement.prototype, 'value')?.set;
  if (!setValue) return;
  for (const input of root.querySelectorAll('input')) {
    const typed = input.value;
    if (typed === input.defaultValue || input.type === 'checkbox' || input.type === 'radio') continue;
    // Through React's own value property first (it records '' as the last value it saw), then
    // the typed text with the element's plain setter: the input event is a change for React.
    input.value = '';
    setValue.call(input, typed);
    input.dispatchEvent(new win.Event('input', { bubbles: true }));
  }
}

export function markAppStarted(win: Window & typeof globalThis): void {
  adoptTypedValues(win);
  win.document.documentElement.setAttribute('data-app', 'started');
  const pending: unknown = Reflect.get(win, PENDING_SUBMIT);
  Reflect.deleteProperty(win, PENDING_SUBMIT);
  if (pending instanceof win.HTMLFormElement && pending.isConnected) pending.requestSubmit();
}
