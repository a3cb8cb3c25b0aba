/**
 * ConfirmDialog: the one confirmation step before destructive or money-moving actions.
 *
 * If onConfirm returns a Promise the dialog runs it: both buttons are disabled and the
 * confirm button shows the loading label while it is pending; it closes only after the
 * promise resolves, and on rejection it stays open and shows the error. If onConfirm returns
 * nothing, the caller (usually a machine) drives `loading`, `error` and `open` itself.
 * Labels default to the translated confirm/cancel texts.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useT } from '../i18n';
import { Button, type ButtonVariant } from './Button';
import { InfoChip } from './InfoChip';
import { Modal } from './Modal';

export type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  message?: ReactNode;
  /** Extra content under the message (an amount, a quote). */
  children?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  loadingLabel?: string;
  confirmVariant?: Extract<ButtonVariant, 'primary' | 'danger' | 'up' | 'down'>;
  /** Busy state driven from outside (a machine in its submitting state). */
  loading?: boolean;
  /** Error driven from outside; shown under the message. */
  error?: string | null;
  onConfirm: () => Promise<unknown> | void;
  onCancel?: () => void;
  /** Text for a rejected onConfirm; default: the error's message, else "Operation failed". */
  describeError?: (error: unknown) => string;
};

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  message,
  children,
  confirmLabel,
  cancelLabel,
  loadingLabel,
  confirmVariant = 'primary',
  loading = false,
  error,
  onConfirm,
  onCancel,
  describeError,
}: ConfirmDialogProps) {
  const t = useT();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  // A fresh opening starts clean.
  useEffect(() => {
    if (open) setFailure(null);
  }, [open]);

  const busy = pending || loading;
  const shownError = failure ?? error ?? null;

  const describe = (reason: unknown): string => {
    if (describeError) return describeError(reason);
    if (reason instanceof Error && reason.message) return reason.message;
    if (typeof reason === 'string' && reason) return reason;
    return t('common.operation_failed');
  };

  const confirm = async () => {
    if (busy) return;
    setFailure(null);
    const result = onConfirm();
    if (!result || typeof (result as Promise<unknown>).then !== 'function') return;
    setPending(true);
    try {
      await result;
      if (!mounted.current) return;
      setPending(false);
      onOpenChange(false);
    } catch (reason) {
      if (!mounted.current) return;
      setPending(false);
      setFailure(describe(reason));
    }
  };

  const cancel = () => {
    if (busy) return;
    onCancel?.();
    onOpenChange(false);
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : cancel())}
      title={title}
      description={message}
      size="sm"
      dismissible={!busy}
      footer={
        <>
          <Button variant="secondary" onClick={cancel} disabled={busy}>
            {cancelLabel ?? t('common.cancel')}
          </Button>
          <Button
            variant={confirmVariant}
            onClick={confirm}
            loading={busy}
            loadingLabel={loadingLabel ?? t('common.loading')}
          >
            {confirmLabel ?? t('common.confirm')}
          </Button>
        </>
      }
    >
      {children || shownError ? (
        <div className="stack stack-sm">
          {children}
          {shownError ? (
            <InfoChip kind="error" live>
              {t(shownError)}
            </InfoChip>
          ) : null}
        </div>
      ) : null}
    </Modal>
  );
}
