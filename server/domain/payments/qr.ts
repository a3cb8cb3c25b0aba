/**
 * QR codes for crypto deposits: a data: URL PNG the SPA shows as an image (the CSP allows
 * data: images), generated from a BIP21 URI for Bitcoin and from the bare address otherwise
 * (TRON has no URI scheme wallets agree on).
 */
import QRCode from 'qrcode';
import { formatMinor } from '../../../contract/money';

export function paymentUri(network: string | null, address: string, amountMinor: number, decimals: number): string {
  if (network === 'Bitcoin') return `bitcoin:${address}?amount=${formatMinor(amountMinor, decimals).replace(/\.?0+$/, '')}`;
  return address;
}

export function qrDataUrl(text: string): Promise<string> {
  return QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 240, type: 'image/png' });
}
