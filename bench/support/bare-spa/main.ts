/**
 * The same-run baseline of the SPA bench: the smallest React 19 + XState v5 app (one machine,
 * one component selecting from its actor), built like the product. What the product's first
 * paint costs on top of this is the product's own code.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor, createMachine } from 'xstate';
import { useSelector } from '@xstate/react';

const machine = createMachine({ id: 'bare', initial: 'idle', states: { idle: { on: { go: 'done' } }, done: {} } });
const actor = createActor(machine).start();

function App() {
  const state = useSelector(actor, (s) => String(s.value));
  return createElement('button', { type: 'button', onClick: () => actor.send({ type: 'go' }) }, `State: ${state}`);
}

createRoot(document.getElementById('root')!).render(createElement(App));
