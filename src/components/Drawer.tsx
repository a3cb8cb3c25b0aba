/**
 * Drawer (side panel) and BottomSheet on @radix-ui/react-dialog: the mobile menu slides in
 * from the left, the order sheet rises from the bottom. Same guarantees as Modal: named by
 * its title, Escape and overlay click close it, scroll locked, focus trapped and returned.
 */
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode, RefObject } from 'react';
import { useT } from '../i18n';
import { IconButton } from './Button';
import { cx } from './cx';
import { isToastInteraction, useDialogFocus } from './dialog-focus';
import './Drawer.css';

export type DrawerProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Hide the title visually (it still names the panel). */
  hideTitle?: boolean;
  description?: ReactNode;
  side?: 'left' | 'right' | 'bottom';
  children?: ReactNode;
  footer?: ReactNode;
  /** Content placed in the header next to the title (a logo, a balance). */
  headerExtra?: ReactNode;
  initialFocus?: RefObject<HTMLElement | null>;
  returnFocus?: RefObject<HTMLElement | null>;
  className?: string;
};

export function Drawer({
  open,
  onOpenChange,
  title,
  hideTitle = false,
  description,
  side = 'left',
  children,
  footer,
  headerExtra,
  initialFocus,
  returnFocus,
  className,
}: DrawerProps) {
  const t = useT();
  const focus = useDialogFocus({ initialFocus, returnFocus });
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="drawer-overlay" data-testid="drawer-overlay" />
        <Dialog.Content
          className={cx('drawer', `drawer-${side}`, className)}
          onOpenAutoFocus={focus.onOpenAutoFocus}
          onCloseAutoFocus={focus.onCloseAutoFocus}
          onInteractOutside={(event) => {
            if (isToastInteraction(event)) event.preventDefault();
          }}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          {side === 'bottom' ? <div className="drawer-grip" aria-hidden="true" /> : null}
          <header className="drawer-header">
            {headerExtra}
            <Dialog.Title className={cx('drawer-title', hideTitle && 'visually-hidden')}>{title}</Dialog.Title>
            <Dialog.Close asChild>
              <IconButton className="drawer-close" icon="close" label={t('common.close')} />
            </Dialog.Close>
          </header>
          {description ? <Dialog.Description className="drawer-description">{description}</Dialog.Description> : null}
          <div className="drawer-body">{children}</div>
          {footer ? <footer className="drawer-footer">{footer}</footer> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The drawer that rises from the bottom edge (orders on mobile, the bet sheet). */
export function BottomSheet(props: Omit<DrawerProps, 'side'>) {
  return <Drawer {...props} side="bottom" />;
}
