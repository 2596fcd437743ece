import { escapeHtml, htmlPage } from '../../lib/html-page.ts';
import type { PublicReceiptCheck } from './receipts.service.ts';

/**
 * The public page a receipt's QR code opens (docs/decisions/023), in French then English: whether the
 * receipt is valid or cancelled, with the organisation, year, amount and the donor's initials only;
 * or that no such receipt exists.
 */
export function receiptCheckPage(check: PublicReceiptCheck): string {
  if (check.status === 'unknown') {
    return htmlPage(
      'Reçu inconnu / Unknown receipt',
      `<h1 style="font-size: 1.35rem; margin-top: 0;">Reçu inconnu</h1>
<p>Aucun reçu ne correspond à ce lien. Vérifiez qu’il a été recopié en entier, ou adressez-vous à l’organisme qui vous l’a remis.</p>
<hr style="border: 0; border-top: 1px solid #e4e7eb; margin: 1.5rem 0;">
<h2 lang="en" style="font-size: 1.15rem;">Unknown receipt</h2>
<p lang="en">No receipt matches this link. Check that it was copied in full, or ask the organisation that gave it to you.</p>`,
    );
  }
  const from = check.organisationName ? ` par ${escapeHtml(check.organisationName)}` : '';
  const facts = `<ul>
<li>Reçu n° ${check.number}${from}</li>
<li>Dons de l’année ${check.year}</li>
<li>Montant : ${escapeHtml(check.amount)}</li>
<li>Donateur : ${escapeHtml(check.donorInitials || '—')}</li>
</ul>`;
  if (check.status === 'cancelled') {
    const replaced = check.replacedBy ? ` Il est remplacé par le reçu n° ${check.replacedBy}.` : '';
    return htmlPage(
      `Reçu n° ${check.number} annulé / Cancelled receipt`,
      `<h1 style="font-size: 1.35rem; margin-top: 0; color: #b00020;">Reçu n° ${check.number} : annulé</h1>
<p>Ce reçu a été annulé${check.cancelledOn ? ` le ${escapeHtml(check.cancelledOn)}` : ''} : il n’ouvre plus droit à réduction d’impôt.${replaced}</p>
${facts}
<hr style="border: 0; border-top: 1px solid #e4e7eb; margin: 1.5rem 0;">
<p lang="en">This receipt was cancelled: it no longer gives a right to a tax reduction.${check.replacedBy ? ` Receipt no. ${check.replacedBy} replaces it.` : ''}</p>`,
    );
  }
  return htmlPage(
    `Reçu n° ${check.number} valable / Valid receipt`,
    `<h1 style="font-size: 1.35rem; margin-top: 0; color: #1b5e20;">Reçu n° ${check.number} : valable</h1>
<p>Ce reçu a bien été émis et n’a pas été annulé.</p>
${facts}
<hr style="border: 0; border-top: 1px solid #e4e7eb; margin: 1.5rem 0;">
<p lang="en">This receipt was issued and has not been cancelled.</p>`,
  );
}
