import { AppError } from '../../lib/errors.ts';
import { asArray, child, decimalToCents, readIso20022Document, text, type XmlNode } from './iso20022-xml.ts';

// Sources: ISO 20022 message definitions CustomerPaymentStatusReport (pain.002.001.03, .001.10) and
// BankToCustomerDebitCreditNotification (camt.054.001.02 to .001.08); the EPC SEPA Core Direct Debit
// rulebook (EPC016-09), chapter on R-transactions (rejects, returns, refunds), and the EPC guidance on
// reason codes for SDD R-transactions (EPC173-14), which uses the ISO external return reason codes.

/**
 * One collection the bank did not carry out or took back:
 * - `endToEndId`: the EndToEndId the pain.008 file gave it;
 * - `status`: `rejected` (refused before settlement, reported in a pain.002 status report) or
 *   `returned` (debited back after settlement: return, refund or reversal, reported in a camt.054);
 * - `reasonCode`: the ISO 20022 external return reason code (`AC04` account closed, `MD01` no
 *   mandate, `AM04` insufficient funds, `MS02` refused by the debtor...), or the bank's proprietary
 *   code when it gives no ISO one;
 * - `amountCents`: the amount in euro cents, when the file gives it in EUR;
 * - `originalMessageId`: MsgId of the pain.008 file, when the report names it (pain.002 does).
 */
export type DirectDebitReturn = {
  endToEndId: string;
  status: 'rejected' | 'returned';
  reasonCode: string;
  amountCents?: number;
  originalMessageId?: string;
};

/**
 * What is wrong with a bank file given to {@link parseDirectDebitReturns}:
 * - `not_xml`: not well-formed XML (the parser's message and line in `message`);
 * - `doctype`: the file declares a DOCTYPE (refused: entity expansion is an attack vector);
 * - `unknown_message`: a namespace other than pain.002.001.03/.10 or camt.054.001.02-.08;
 * - `malformed`: a known message lacking what is needed (the element path in `message`);
 * - `group_rejected`: the bank refused the whole file or a whole batch without listing its
 *   transactions (`reasonCode` given): every collection of it is to be taken as rejected.
 * Also an {@link AppError} `direct_debit.invalid_return_file` (400) for the HTTP layer.
 */
export class DirectDebitReturnFileError extends AppError {
  override name = 'DirectDebitReturnFileError';
  constructor(
    readonly reason: 'not_xml' | 'doctype' | 'unknown_message' | 'malformed' | 'group_rejected',
    message: string,
    readonly reasonCode?: string,
  ) {
    super('direct_debit.invalid_return_file', 400, 'Bad Request', message);
  }
}

const PAIN_002 = /^urn:iso:std:iso:20022:tech:xsd:pain\.002\.001\.(03|10)$/;
const CAMT_054 = /^urn:iso:std:iso:20022:tech:xsd:camt\.054\.001\.0[2-8]$/;

/** `<Amt Ccy="EUR">12.3</Amt>` -> 1230 cents; undefined for another currency or more than cents. */
function amountCents(node: XmlNode | undefined, name: string): number | undefined {
  const element = asArray(node?.[name])[0];
  if (element?.['@Ccy'] !== 'EUR') return undefined;
  const value = text(node, name);
  return value === undefined ? undefined : decimalToCents(value);
}

/** Reason code of a `StsRsnInf` or `RtrInf`: `Rsn/Cd`, else the bank's `Rsn/Prtry`. */
function reasonCode(node: XmlNode | undefined): string | undefined {
  return text(node, 'Rsn/Cd') ?? text(node, 'Rsn/Prtry');
}

function malformed(path: string): DirectDebitReturnFileError {
  return new DirectDebitReturnFileError('malformed', `${path} is missing`);
}

/** pain.002: transactions with TxSts RJCT, and whole-file or whole-batch rejections. */
function parseStatusReport(root: XmlNode): DirectDebitReturn[] {
  const report = child(root, 'CstmrPmtStsRpt');
  if (!report) throw malformed('Document/CstmrPmtStsRpt');
  const group = child(report, 'OrgnlGrpInfAndSts');
  if (!group) throw malformed('CstmrPmtStsRpt/OrgnlGrpInfAndSts');
  const originalMessageId = text(group, 'OrgnlMsgId');
  const batches = asArray(report.OrgnlPmtInfAndSts);
  const hasTransactions = batches.some((batch) => asArray(batch.TxInfAndSts).length > 0);
  if (text(group, 'GrpSts') === 'RJCT' && !hasTransactions) {
    const code = reasonCode(child(group, 'StsRsnInf'));
    throw new DirectDebitReturnFileError(
      'group_rejected',
      `the bank rejected the whole file ${originalMessageId ?? ''} (${code ?? 'no reason given'})`.trim(),
      code,
    );
  }
  const results: DirectDebitReturn[] = [];
  for (const batch of batches) {
    const transactions = asArray(batch.TxInfAndSts);
    if (text(batch, 'PmtInfSts') === 'RJCT' && transactions.length === 0) {
      const code = reasonCode(child(batch, 'StsRsnInf'));
      throw new DirectDebitReturnFileError(
        'group_rejected',
        `the bank rejected the whole batch ${text(batch, 'OrgnlPmtInfId') ?? ''} (${code ?? 'no reason given'})`,
        code,
      );
    }
    for (const transaction of transactions) {
      if (text(transaction, 'TxSts') !== 'RJCT') continue;
      const endToEndId = text(transaction, 'OrgnlEndToEndId');
      if (!endToEndId) throw malformed('TxInfAndSts/OrgnlEndToEndId');
      const code = reasonCode(child(transaction, 'StsRsnInf'));
      if (!code) throw malformed(`TxInfAndSts[${endToEndId}]/StsRsnInf/Rsn/Cd`);
      const amount = amountCents(child(child(transaction, 'OrgnlTxRef'), 'Amt'), 'InstdAmt');
      results.push({
        endToEndId,
        status: 'rejected',
        reasonCode: code,
        ...(amount === undefined ? {} : { amountCents: amount }),
        ...(originalMessageId === undefined ? {} : { originalMessageId }),
      });
    }
  }
  return results;
}

/** camt.054: booked debit entries whose transactions carry return information. */
function parseDebitNotification(root: XmlNode): DirectDebitReturn[] {
  const notification = child(root, 'BkToCstmrDbtCdtNtfctn');
  if (!notification) throw malformed('Document/BkToCstmrDbtCdtNtfctn');
  const results: DirectDebitReturn[] = [];
  for (const account of asArray(notification.Ntfctn)) {
    for (const entry of asArray(account.Ntry)) {
      if (text(entry, 'CdtDbtInd') !== 'DBIT') continue;
      // A reversal entry cancels an earlier booking of the bank; it is not a return.
      if (text(entry, 'RvslInd') === 'true') continue;
      // Sts is a code in .02-.06 and a choice (Sts/Cd) from .07: only booked entries count.
      const status = text(entry, 'Sts/Cd') ?? text(entry, 'Sts');
      if (status !== undefined && status !== 'BOOK') continue;
      const details = asArray(entry.NtryDtls).flatMap((detail) => asArray(detail.TxDtls));
      for (const transaction of details) {
        // An empty `<RtrInf/>` still marks a return (and is then malformed for lack of a reason).
        if (transaction.RtrInf === undefined) continue;
        const returnInformation = child(transaction, 'RtrInf');
        const endToEndId = text(transaction, 'Refs/EndToEndId');
        if (!endToEndId) throw malformed('Ntry/NtryDtls/TxDtls/Refs/EndToEndId');
        const code = reasonCode(returnInformation);
        if (!code) throw malformed(`TxDtls[${endToEndId}]/RtrInf/Rsn/Cd`);
        const amount =
          amountCents(transaction, 'Amt') ??
          amountCents(child(child(transaction, 'AmtDtls'), 'TxAmt'), 'Amt') ??
          amountCents(child(child(transaction, 'AmtDtls'), 'InstdAmt'), 'Amt') ??
          (details.length === 1 ? amountCents(entry, 'Amt') : undefined);
        results.push({
          endToEndId,
          status: 'returned',
          reasonCode: code,
          ...(amount === undefined ? {} : { amountCents: amount }),
        });
      }
    }
  }
  return results;
}

/**
 * The rejected and returned direct debits a bank file reports, in file order, from:
 * - a payment status report `pain.002.001.03` or `pain.002.001.10`: every `TxInfAndSts` with
 *   `TxSts` RJCT gives a `rejected` line (`OrgnlEndToEndId`, `StsRsnInf/Rsn/Cd`, the amount of
 *   `OrgnlTxRef/Amt/InstdAmt`, the file's `OrgnlMsgId`); accepted or pending ones are skipped;
 * - a debit notification `camt.054.001.02` to `camt.054.001.08`: every booked (`Sts` BOOK), non-reversal
 *   `Ntry` with `CdtDbtInd` DBIT gives a `returned` line per `NtryDtls/TxDtls` carrying `RtrInf`
 *   (`Refs/EndToEndId`, `RtrInf/Rsn/Cd`, the transaction amount, else the entry's when it has one
 *   transaction); other entries are skipped.
 * The message is told by the namespace of its root `Document`. `file` is text, or bytes in the encoding
 * its XML declaration names. The XML is parsed without DTDs or entity expansion.
 *
 * @throws DirectDebitReturnFileError for a file that is not XML, has a DOCTYPE, is another message, lacks
 * an element a line needs, or rejects a whole file or batch without listing its transactions.
 */
export function parseDirectDebitReturns(file: string | Uint8Array): DirectDebitReturn[] {
  const { root, namespaces } = readIso20022Document(
    file,
    (reason, message) => new DirectDebitReturnFileError(reason, message),
  );
  if (namespaces.some((namespace) => PAIN_002.test(namespace))) return parseStatusReport(root);
  if (namespaces.some((namespace) => CAMT_054.test(namespace))) return parseDebitNotification(root);
  const named =
    namespaces.find((namespace) => namespace.startsWith('urn:iso:')) ?? '(no ISO 20022 namespace)';
  throw new DirectDebitReturnFileError(
    'unknown_message',
    `unsupported message ${named}: expected pain.002.001.03/.10 or camt.054.001.02-.08`,
  );
}

/**
 * Reason codes after which the mandate is suspended at once, without waiting for another attempt:
 * `MD01` (no valid mandate), `AC04` (account closed), `AC06` (account blocked), `MD07` (debtor
 * deceased). Per the EPC SEPA Core Direct Debit rulebook's R-transactions (rejects, returns, refunds,
 * with the reason codes of the EPC guidance EPC173-14), these say the mandate can no longer be used:
 * collecting again would only bring another R-transaction. Other codes (`AM04` insufficient funds,
 * `MS02` refused by the debtor...) may be retried under the creditor's own rules.
 */
export function isImmediateSuspension(reasonCode: string): boolean {
  return IMMEDIATE_SUSPENSION_CODES.has(reasonCode);
}

const IMMEDIATE_SUSPENSION_CODES: ReadonlySet<string> = new Set(['MD01', 'AC04', 'AC06', 'MD07']);
