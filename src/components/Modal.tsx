/**
 * Modal dialog on @radix-ui/react-dialog: a title (its accessible name), an optional
 * description, a body, an optional footer and a close button named from the locale files.
 * Closes on Escape and on a click on the overlay (unless `dismissible` is false, e.g. while a
 * request is running), locks page scroll, traps focus and gives it back to the opener.
 */
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode, RefObject } from 'react';
import { useT } from '../i18n';
import { IconButton } from './Button';
import { cx } from './cx';
import { isToastInteraction, useDialogFocus } from './dialog-focus';
import './Modal.css';

export type ModalSize = 'sm' | 'md' | 'lg' | 'xl';

export type ModalProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  size?: ModalSize;
  /** False blocks Escape, overlay click and the close button (use while a request runs). */
  dismissible?: boolean;
  /** Hide the title visually (it still names the dialog). */
  hideTitle?: boolean;
  initialFocus?: RefObject<HTMLElement | null>;
  returnFocus?: RefObject<HTMLElement | null>;
  className?: string;
};

export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  size = 'md',
  dismissible = true,
  hideTitle = false,
  initialFocus,
  returnFocus,
  className,
}: ModalProps) {
  const t = useT();
  const focus = useDialogFocus({ initialFocus, returnFocus });
  const block = (event: Event) => {
    if (!dismissible || isToastInteraction(event)) event.preventDefault();
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next || dismissible ? onOpenChange(next) : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay" data-testid="modal-overlay" />
        <Dialog.Content
          className={cx('modal', `modal-${size}`, className)}
          onOpenAutoFocus={focus.onOpenAutoFocus}
          onCloseAutoFocus={focus.onCloseAutoFocus}
          onEscapeKeyDown={block}
          onInteractOutside={block}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <header className={cx('modal-header', hideTitle && 'modal-header-bare')}>
            <Dialog.Title className={cx('modal-title', hideTitle && 'visually-hidden')}>{title}</Dialog.Title>
            {description ? <Dialog.Description className="modal-description">{description}</Dialog.Description> : null}
          </header>
          <div className="modal-body">{children}</div>
          {footer ? <footer className="modal-footer">{footer}</footer> : null}
          {/* Last in the DOM so Tab reaches the content first; placed top-right by CSS. */}
          <Dialog.Close asChild>
            <IconButton className="modal-close" icon="close" label={t('common.close')} disabled={!dismissible} />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
