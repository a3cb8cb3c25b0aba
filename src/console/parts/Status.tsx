/** A status as a compact labelled chip (text, never colour alone). */
import { InfoChip, type InfoKind } from '../../components';
import { useT } from '../../i18n';

const KIND: Record<string, InfoKind> = {
  pending: 'warning',
  processing: 'info',
  approved: 'success',
  completed: 'success',
  executed: 'success',
  active: 'success',
  enabled: 'success',
  won: 'success',
  failed: 'error',
  rejected: 'error',
  blocked: 'error',
  disabled: 'error',
  lost: 'error',
  expired: 'info',
  cancelled: 'info',
};

export function Status({ value }: { value: string }) {
  const t = useT();
  const key = `console.statuses.${value}`;
  const text = t(key);
  return (
    <InfoChip kind={KIND[value] ?? 'info'} compact>
      {text === key ? value : text}
    </InfoChip>
  );
}
