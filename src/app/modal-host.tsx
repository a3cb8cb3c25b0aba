/**
 * Renders the modals the modals actor says are open. Each feature exports its modal
 * components; this registry maps a modal id to the component that draws it. A component gets
 * `{ data, onClose }`; closing sends `modal.closeRequested` so the stack stays the single
 * truth (opening the same id again replaces the entry).
 */
import { Suspense } from 'react';
import { useSelector } from '@xstate/react';
import { useModalsActor } from '../shared/runtime';
import { MODALS } from './modal-registry';

export function ModalHost() {
  const modals = useModalsActor();
  const open = useSelector(modals, (s) => s.context.open);
  return (
    <Suspense fallback={null}>
      {open.map((entry) => {
        const Component = MODALS[entry.id];
        if (!Component) return null;
        return <Component key={entry.id} data={entry.data} onClose={() => modals.send({ type: 'modal.closeRequested', id: entry.id })} />;
      })}
    </Suspense>
  );
}
