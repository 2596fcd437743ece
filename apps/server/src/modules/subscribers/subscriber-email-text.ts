import { escapeHtml, htmlPage } from '../../lib/html-page.ts';
/** The person an email is written to (part 2 §3 Subscriber). */
export type EmailRecipient = { title: string; firstName: string; lastName: string };

/**
 * Replaces `{title}`, `{firstName}`, `{lastName}` (and `{organisationName}` when given) in `template`;
 * spaces left doubled by an empty value (no title) are collapsed. Other braces are left as written.
 */
export function personalise(
  template: string,
  recipient: EmailRecipient,
  extra: { organisationName?: string } = {},
): string {
  const values: Record<string, string> = {
    title: recipient.title,
    firstName: recipient.firstName,
    lastName: recipient.lastName,
    ...(extra.organisationName === undefined ? {} : { organisationName: extra.organisationName }),
  };
  return template
    .replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder)
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/^[ \t]+|[ \t]+$/gm, '');
}

/** A subject on one line (a newline in a header would break the message). */
export function oneLine(subject: string): string {
  return subject.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/**
 * The text of a bulk email: the personalised message, a blank line, then `footer`, the settings'
 * footer already filled (it holds the unsubscribe link).
 */
export function withUnsubscribeFooter(text: string, footer: string): string {
  return `${text.trimEnd()}\n\n${footer.trim()}\n`;
}

/**
 * The page the emailed link opens: it asks to confirm, and only the button (a form POST) unsubscribes,
 * so a mail scanner that opens links does not unsubscribe anyone. French then English.
 */
export function confirmUnsubscribePage(subscriberId: number, token: string): string {
  return htmlPage(
    'Se désinscrire / Unsubscribe',
    `<h1 style="font-size: 1.35rem; margin-top: 0;">Se désinscrire des emails groupés</h1>
<p>Confirmez que vous ne souhaitez plus recevoir nos envois d’emails groupés.</p>
<h2 lang="en" style="font-size: 1.15rem;">Unsubscribe from group emails</h2>
<p lang="en">Confirm that you no longer wish to receive our group emails.</p>
<form method="post" action="/unsubscribe">
<input type="hidden" name="s" value="${subscriberId}">
<input type="hidden" name="t" value="${escapeHtml(token)}">
<button type="submit" style="font-size: 1rem; padding: 0.6rem 1.2rem; border-radius: 6px; border: 0; background: #1c7ed6; color: #fff; cursor: pointer;">Me désinscrire / Unsubscribe</button>
</form>`,
  );
}

/** The page shown after unsubscribing through the link, in French then English. */
export function unsubscribedPage(organisationName: string): string {
  const from = organisationName ? ` de ${escapeHtml(organisationName)}` : '';
  const fromEn = organisationName ? ` from ${escapeHtml(organisationName)}` : '';
  return htmlPage(
    'Désinscription enregistrée / Unsubscribed',
    `<h1 style="font-size: 1.35rem; margin-top: 0;">Désinscription enregistrée</h1>
<p>Vous ne recevrez plus nos envois d’emails groupés${from}. Vous pouvez fermer cette page.</p>
<hr style="border: 0; border-top: 1px solid #e4e7eb; margin: 1.5rem 0;">
<h2 lang="en" style="font-size: 1.15rem;">You are unsubscribed</h2>
<p lang="en">You will no longer receive our group emails${fromEn}. You may close this page.</p>`,
  );
}

/** The page shown for a link that is wrong or incomplete (status 400), in French then English. */
export function invalidUnsubscribeLinkPage(): string {
  return htmlPage(
    'Lien non valable / Invalid link',
    `<h1 style="font-size: 1.35rem; margin-top: 0;">Ce lien n’est pas valable</h1>
<p>Le lien de désinscription est incomplet ou erroné. Copiez-le en entier depuis l’email, ou répondez à l’email pour nous demander de vous désinscrire.</p>
<hr style="border: 0; border-top: 1px solid #e4e7eb; margin: 1.5rem 0;">
<h2 lang="en" style="font-size: 1.15rem;">This link is not valid</h2>
<p lang="en">The unsubscribe link is incomplete or wrong. Copy all of it from the email, or reply to the email to ask us to unsubscribe you.</p>`,
  );
}
