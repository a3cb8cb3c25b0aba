/**
 * "Sandbox" said out loud (PAYMENTS_MODE=sandbox, docs/money.md "Payments"): a compact badge on
 * a sandbox method and on a transaction made through one, and a note on the deposit's process
 * screen. Shown only from the server's `sandbox` flag (method, deposit answer, transaction).
 */
import { InfoChip } from '../components/InfoChip';
import './SandboxBadge.css';

export function SandboxBadge() {
  return (
    <InfoChip kind="warning" compact inline prefix={false} icon="info" className="sandbox-badge" status="sandbox">
      sandbox.badge
    </InfoChip>
  );
}

export function SandboxNote() {
  return (
    <InfoChip kind="warning" title="sandbox.badge" className="sandbox-note" status="sandbox">
      sandbox.deposit_note
    </InfoChip>
  );
}
