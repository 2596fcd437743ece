import { createHash } from 'node:crypto';
import JSZip from 'jszip';
import { AppError } from '../../lib/errors.ts';
import {
  asArray,
  child,
  decimalToCents,
  readIso20022Document,
  text,
  texts,
  type XmlNode,
} from '../direct-debit/iso20022-xml.ts';

// Sources: ISO 20022 message definitions BankToCustomerStatement (camt.053.001.02 to .001.08) and
// BankToCustomerDebitCreditNotification (camt.054.001.02 to .001.08); SIX Swiss Payment Standards,
// "Swiss Business Rules for Cash Management camt.053/054" (QR reference `QRR`: 27 digits, the last a
// modulo-10 recursive check digit, typed `Tp/CdOrPrtry/Prtry` QRR); ISO 11649 (structured creditor
// reference `RF` + 2 check digits + up to 21 characters, typed `Tp/CdOrPrtry/Cd` SCOR).

/**
 * One booked transaction of a bank statement or notification:
 * - `entryRef`: idempotence key, stable across imports of the same file: the bank's reference of the
 *   transaction (`TxDtls/Refs/AcctSvcrRef`), else of the entry (`AcctSvcrRef`, else `NtryRef`),
 *   suffixed `#1`, `#2`... when the entry holds several transactions without references of their own;
 *   when the file gives no reference, a SHA-256 (64 hex digits) of the transaction's content;
 * - `accountIban`: the IBAN of our account the statement is about (`Stmt/Acct/Id/IBAN`);
 * - `bookingDate`, `valueDate`: `YYYY-MM-DD`;
 * - `amountCents`: the amount in cents (minor units) of `currency` (ISO 4217 code), never negative:
 *   `direction` tells whether it came in (`credit`) or went out (`debit`);
 * - `reversal`: the bank cancels an earlier booking of its own (`RvslInd`); its direction is the
 *   opposite of the booking it cancels;
 * - `isReturn`: the transaction returns an earlier payment (`RtrInf`): a direct debit taken back, a
 *   transfer sent back;
 * - `debtorName`, `debtorIban`: who paid (`RltdPties/Dbtr`, `RltdPties/DbtrAcct`);
 * - `reference`: the structured creditor reference, a Swiss QR reference (`QRR`, 27 digits) or an
 *   ISO 11649 reference (`SCOR`, `RF...`), without spaces;
 * - `text`: the unstructured remittance lines joined by a space, else the bank's additional information
 *   on the transaction and entry; empty when there is none;
 * - `endToEndId`: the payer's end-to-end id, absent when the bank gives none or `NOTPROVIDED`.
 */
export type StatementEntry = {
  entryRef: string;
  accountIban?: string;
  bookingDate: string;
  valueDate?: string;
  amountCents: number;
  currency: string;
  direction: 'credit' | 'debit';
  reversal: boolean;
  isReturn: boolean;
  debtorName?: string;
  debtorIban?: string;
  reference?: { type: 'QRR' | 'SCOR'; value: string };
  text: string;
  endToEndId?: string;
};

/**
 * What is wrong with a file given to {@link parseBankStatement} or {@link readStatementFiles}:
 * - `not_xml`: not well-formed XML, or in an unknown encoding (the parser's message and line in `message`);
 * - `doctype`: the file declares a DOCTYPE (refused: entity expansion is an attack vector);
 * - `unknown_message`: another message than a camt.053 or camt.054 (the namespace found is named);
 * - `malformed`: a camt.053 or camt.054 lacking what a transaction needs (the element path in `message`);
 * - `zip_too_large`: a ZIP with more than 200 files or more than 50 MB once unpacked;
 * - `zip_unreadable`: a damaged ZIP, or one holding no XML file.
 * When the file came in a ZIP, `message` starts with the name of the file inside it.
 * Also an {@link AppError} `bank_statements.invalid_file` (400) for the HTTP layer.
 */
export class BankStatementFileError extends AppError {
  override name = 'BankStatementFileError';
  constructor(
    readonly reason:
      | 'not_xml'
      | 'doctype'
      | 'unknown_message'
      | 'malformed'
      | 'zip_too_large'
      | 'zip_unreadable',
    message: string,
  ) {
    super('bank_statements.invalid_file', 400, 'Bad Request', message);
  }
}

const CAMT = /^urn:iso:std:iso:20022:tech:xsd:camt\.05([34])\.001\.0[2-8]$/;

/** Most files a ZIP may hold, and most bytes they may unpack to (guard against ZIP bombs). */
const MAX_ZIP_MEMBERS = 200;
const MAX_ZIP_BYTES = 50 * 1024 * 1024;

function malformed(path: string, problem = 'is missing'): BankStatementFileError {
  return new BankStatementFileError(
    'malformed',
    `the bank file is incomplete or damaged: ${path} ${problem}`,
  );
}

/** `YYYY-MM-DD` of a `DateAndDateTime2Choice` (`Dt`, or the date part of `DtTm` as the bank wrote it). */
function dateOf(node: XmlNode | undefined): string | undefined {
  const value = text(node, 'Dt') ?? text(node, 'DtTm')?.slice(0, 10);
  return value !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

/** `<Amt Ccy="CHF">12.30</Amt>` under `node` -> amount in cents and currency; undefined when absent. */
function amountOf(
  node: XmlNode | undefined,
  path: string,
  where: string,
): { cents: number; currency: string } | undefined {
  const parentPath = path.split('/').slice(0, -1);
  const name = path.split('/').at(-1) ?? '';
  let parent = node;
  for (const step of parentPath) parent = child(parent, step);
  const element = child(parent, name);
  const value = text(parent, name);
  if (!element || value === undefined) return undefined;
  const currency = element['@Ccy'];
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) {
    throw malformed(`${where}/${path}/@Ccy`, 'is not an ISO 4217 currency code');
  }
  const cents = decimalToCents(value);
  if (cents === undefined) {
    throw malformed(`${where}/${path}`, `is not an amount with at most 2 decimals (${value})`);
  }
  return { cents, currency };
}

function directionOf(code: string | undefined): 'credit' | 'debit' | undefined {
  if (code === 'CRDT') return 'credit';
  if (code === 'DBIT') return 'debit';
  return undefined;
}

/**
 * The structured creditor reference of a transaction: `RmtInf/Strd/CdtrRefInf/Ref`, typed by
 * `Tp/CdOrPrtry/Prtry` QRR or `Tp/CdOrPrtry/Cd` SCOR; untyped, 27 digits is a QR reference and `RF` an
 * ISO 11649 one. Other types (`Cd` RADM, proprietary ISR...) give none.
 */
function referenceOf(transaction: XmlNode): StatementEntry['reference'] {
  for (const structured of asArray(child(transaction, 'RmtInf')?.Strd)) {
    const creditorReference = child(structured, 'CdtrRefInf');
    const value = text(creditorReference, 'Ref')?.replace(/\s+/g, '');
    if (!value) continue;
    const type = child(child(creditorReference, 'Tp'), 'CdOrPrtry');
    const proprietary = text(type, 'Prtry')?.toUpperCase();
    const code = text(type, 'Cd');
    if (proprietary === 'QRR') return { type: 'QRR', value };
    if (code === 'SCOR') return { type: 'SCOR', value: value.toUpperCase() };
    if (type !== undefined) continue;
    if (/^\d{27}$/.test(value)) return { type: 'QRR', value };
    if (/^RF\d{2}[A-Z0-9]{1,21}$/i.test(value)) return { type: 'SCOR', value: value.toUpperCase() };
  }
  return undefined;
}

/** Unstructured remittance lines, else the additional information of the transaction and the entry. */
function textOf(transaction: XmlNode | undefined, entry: XmlNode): string {
  const lines = texts(child(transaction, 'RmtInf'), 'Ustrd');
  const chosen = lines.length > 0 ? lines : [text(transaction, 'AddtlTxInf'), text(entry, 'AddtlNtryInf')];
  const parts = chosen.map((line) => line?.replace(/\s+/g, ' ').trim() ?? '').filter((line) => line !== '');
  return [...new Set(parts)].join(' ');
}

/** The entries of one `Stmt` (camt.053) or `Ntfctn` (camt.054); `seenHashes` counts hashed keys. */
function readReport(report: XmlNode, where: string, seenHashes: Map<string, number>): StatementEntry[] {
  const accountIban = text(report, 'Acct/Id/IBAN')?.replace(/\s+/g, '');
  const results: StatementEntry[] = [];
  asArray(report.Ntry).forEach((entry, entryIndex) => {
    const at = `${where}/Ntry[${entryIndex + 1}]`;
    // Sts is a code in .02-.06 and a choice (Sts/Cd, or a proprietary Sts/Prtry) from .07.
    const status = text(entry, 'Sts/Cd') ?? text(entry, 'Sts/Prtry') ?? text(entry, 'Sts');
    if (status === undefined) throw malformed(`${at}/Sts`);
    if (status !== 'BOOK') return;
    const entryDirection = directionOf(text(entry, 'CdtDbtInd'));
    if (!entryDirection) throw malformed(`${at}/CdtDbtInd`, 'is neither CRDT nor DBIT');
    const entryAmount = amountOf(entry, 'Amt', at);
    if (!entryAmount) throw malformed(`${at}/Amt`);
    const bookingDate = dateOf(child(entry, 'BookgDt'));
    if (!bookingDate) throw malformed(`${at}/BookgDt/Dt`);
    const valueDate = dateOf(child(entry, 'ValDt'));
    const rvsl = text(entry, 'RvslInd');
    const reversal = rvsl === 'true' || rvsl === '1';
    const entryRef = text(entry, 'AcctSvcrRef') ?? text(entry, 'NtryRef');
    const transactions = asArray(entry.NtryDtls).flatMap((details) => asArray(details.TxDtls));
    const transactionRefs = transactions.map((transaction) => text(transaction, 'Refs/AcctSvcrRef'));
    const several = transactions.length > 1;

    /**
     * The transaction's own bank reference when it is distinct within the entry, else the entry's,
     * numbered when the entry holds several transactions; a content hash when the file gives none.
     */
    const keyOf = (fields: Omit<StatementEntry, 'entryRef'>, index: number): string => {
      const own = transactionRefs[index];
      const distinct =
        own !== undefined && (!several || (own !== entryRef && transactionRefs.indexOf(own) === index));
      if (own !== undefined && distinct) return own;
      const base = own ?? entryRef;
      if (base !== undefined) return several ? `${base}#${index + 1}` : base;
      const hash = createHash('sha256')
        .update(
          [
            fields.accountIban ?? '',
            fields.bookingDate,
            String(fields.amountCents),
            fields.currency,
            fields.direction,
            fields.endToEndId ?? fields.text,
          ].join('\n'),
        )
        .digest('hex');
      // Two identical payments in one file (same day, amount and text) must stay two lines.
      const seen = seenHashes.get(hash) ?? 0;
      seenHashes.set(hash, seen + 1);
      return seen === 0 ? hash : `${hash}#${seen + 1}`;
    };

    const build = (transaction: XmlNode | undefined, index: number): StatementEntry => {
      const txAt = transaction ? `${at}/NtryDtls/TxDtls[${index + 1}]` : at;
      // The instructed amount may be in another currency than the booking: the entry's comes first.
      const amount =
        amountOf(transaction, 'Amt', txAt) ??
        amountOf(transaction, 'AmtDtls/TxAmt/Amt', txAt) ??
        (several ? undefined : entryAmount) ??
        amountOf(transaction, 'AmtDtls/InstdAmt/Amt', txAt);
      if (!amount) throw malformed(`${txAt}/Amt`);
      const direction = directionOf(text(transaction, 'CdtDbtInd')) ?? entryDirection;
      const endToEndId = text(transaction, 'Refs/EndToEndId');
      const parties = child(transaction, 'RltdPties');
      const debtorName = text(parties, 'Dbtr/Nm') ?? text(parties, 'Dbtr/Pty/Nm');
      const debtorIban = text(parties, 'DbtrAcct/Id/IBAN')?.replace(/\s+/g, '');
      const reference = transaction ? referenceOf(transaction) : undefined;
      const remittance = textOf(transaction, entry);
      const fields = {
        ...(accountIban === undefined ? {} : { accountIban }),
        bookingDate,
        ...(valueDate === undefined ? {} : { valueDate }),
        amountCents: amount.cents,
        currency: amount.currency,
        direction,
        reversal,
        isReturn: transaction?.RtrInf !== undefined,
        ...(debtorName === undefined ? {} : { debtorName }),
        ...(debtorIban === undefined ? {} : { debtorIban }),
        ...(reference === undefined ? {} : { reference }),
        text: remittance,
        ...(endToEndId === undefined || endToEndId === 'NOTPROVIDED' ? {} : { endToEndId }),
      };
      return { entryRef: keyOf(fields, index), ...fields };
    };

    if (transactions.length === 0) results.push(build(undefined, 0));
    else results.push(...transactions.map((transaction, index) => build(transaction, index)));
  });
  return results;
}

/**
 * The booked transactions of one bank statement or notification, in file order:
 * - a statement `camt.053.001.02` to `camt.053.001.08` (ISO 20022 BankToCustomerStatement,
 *   `BkToCstmrStmt/Stmt/Ntry`) or a notification `camt.054.001.02` to `camt.054.001.08`
 *   (BankToCustomerDebitCreditNotification, `BkToCstmrDbtCdtNtfctn/Ntfctn/Ntry`);
 * - only entries with status BOOK (`Sts` in .02-.06, `Sts/Cd` from .07); pending or information
 *   entries are skipped;
 * - one {@link StatementEntry} per transaction `NtryDtls/TxDtls` with its own amount (`Amt`, else
 *   `AmtDtls/TxAmt/Amt`; the entry's when it holds this transaction only; else `AmtDtls/InstdAmt/Amt`),
 *   and one with the entry amount for an entry without transaction details; amounts in cents, dates `YYYY-MM-DD` (`BookgDt/Dt` or the date of `BookgDt/DtTm`);
 * - the structured reference is a Swiss QR reference (QRR, SIX Swiss Business Rules for Cash Management
 *   camt.053/054) or an ISO 11649 creditor reference (SCOR); see {@link StatementEntry} for each field
 *   and for `entryRef`, the key that makes a re-import of the same file recognisable.
 * The message is told by the namespace of its root `Document`. `file` is text, or bytes in the encoding
 * its XML declaration names (UTF-8 when none). The XML is parsed without DTDs or entity expansion.
 *
 * @throws BankStatementFileError for a file that is not XML, has a DOCTYPE, is another message, or lacks
 * an element a booked transaction needs (amount with its currency and at most 2 decimals, direction,
 * booking date, status).
 */
export function parseBankStatement(file: string | Uint8Array): StatementEntry[] {
  const { root, namespaces } = readIso20022Document(
    file,
    (reason, message) => new BankStatementFileError(reason, message),
  );
  const message = namespaces.map((namespace) => CAMT.exec(namespace)?.[1]).find(Boolean);
  if (message === undefined) {
    const named =
      namespaces.find((namespace) => namespace.startsWith('urn:iso:')) ?? 'no ISO 20022 namespace';
    throw new BankStatementFileError(
      'unknown_message',
      `the file is not a bank statement (${named}): expected camt.053.001.02 to .08 (account statement) ` +
        'or camt.054.001.02 to .08 (debit/credit notification)',
    );
  }
  const [documentName, reportName] =
    message === '3' ? ['BkToCstmrStmt', 'Stmt'] : ['BkToCstmrDbtCdtNtfctn', 'Ntfctn'];
  const document = child(root, documentName);
  if (!document) throw malformed(`Document/${documentName}`);
  const seenHashes = new Map<string, number>();
  return asArray(document[reportName]).flatMap((report, index) =>
    readReport(report, `${documentName}/${reportName}[${index + 1}]`, seenHashes),
  );
}

/** The number of files a ZIP's end-of-central-directory record declares, when it can be found. */
function declaredMemberCount(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let offset = bytes.length - 22; offset >= lowest; offset--) {
    if (view.getUint32(offset, true) === 0x06054b50) return view.getUint16(offset + 10, true);
  }
  return undefined;
}

/** The size a ZIP member declares once unpacked (JSZip keeps it from the central directory). */
function declaredSize(member: JSZip.JSZipObject): number {
  const size = (member as unknown as { _data?: { uncompressedSize?: unknown } })._data?.uncompressedSize;
  return typeof size === 'number' ? size : 0;
}

/** Unpacks `member`, giving up as soon as `budget` bytes are passed (the declared size may lie). */
function unpack(member: JSZip.JSZipObject, budget: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const stream = member.nodeStream('nodebuffer');
    stream.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > budget) {
        stream.pause();
        stream.removeAllListeners('data');
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    stream.on('error', (error: Error) => reject(error));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

function tooLarge(): BankStatementFileError {
  return new BankStatementFileError(
    'zip_too_large',
    `the ZIP file unpacks to more than ${MAX_ZIP_BYTES / 1024 / 1024} MB: send the statements in smaller ZIP files`,
  );
}

/**
 * The booked transactions of an uploaded bank file, a camt.053 or camt.054 as parsed by
 * {@link parseBankStatement}, or a ZIP of them (told by the bytes `PK\x03\x04`, not by `fileName`):
 * every `.xml` file of the ZIP is parsed, in the order of their names, and their transactions
 * concatenated; other files (nested ZIPs, PDFs, macOS `__MACOSX/` metadata) are ignored. `fileName`
 * (the uploaded name) only serves error messages.
 *
 * @throws BankStatementFileError as {@link parseBankStatement} does (for a ZIP, the message names the file
 * inside it), and `zip_too_large` for a ZIP of more than 200 files or 50 MB unpacked (checked on the
 * declared sizes before reading, and again while unpacking), `zip_unreadable` for a damaged ZIP or one
 * without XML file.
 */
export async function readStatementFiles(file: Uint8Array, fileName?: string): Promise<StatementEntry[]> {
  const isZip =
    file.length >= 4 && file[0] === 0x50 && file[1] === 0x4b && file[2] === 0x03 && file[3] === 0x04;
  if (!isZip) return parseBankStatement(file);
  const zipName = fileName ?? 'the ZIP file';
  const tooMany = () =>
    new BankStatementFileError(
      'zip_too_large',
      `${zipName} holds more than ${MAX_ZIP_MEMBERS} files: send the statements in smaller ZIP files`,
    );
  if ((declaredMemberCount(file) ?? 0) > MAX_ZIP_MEMBERS) throw tooMany();
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(file);
  } catch (error) {
    throw new BankStatementFileError(
      'zip_unreadable',
      `${zipName} is damaged and cannot be opened (${(error as Error).message})`,
    );
  }
  const members = Object.values(zip.files).filter((member) => !member.dir);
  if (members.length > MAX_ZIP_MEMBERS) throw tooMany();
  if (members.reduce((sum, member) => sum + declaredSize(member), 0) > MAX_ZIP_BYTES) throw tooLarge();
  const statements = members
    .filter((member) => {
      const baseName = member.name.split('/').at(-1) ?? '';
      return /\.xml$/i.test(baseName) && !baseName.startsWith('._') && !member.name.startsWith('__MACOSX/');
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (statements.length === 0) {
    throw new BankStatementFileError('zip_unreadable', `${zipName} holds no XML bank statement`);
  }
  const results: StatementEntry[] = [];
  let budget = MAX_ZIP_BYTES;
  for (const member of statements) {
    let bytes: Uint8Array;
    try {
      bytes = await unpack(member, budget);
    } catch (error) {
      if (error instanceof BankStatementFileError) throw error;
      throw new BankStatementFileError(
        'zip_unreadable',
        `${member.name} in ${zipName} is damaged and cannot be read (${(error as Error).message})`,
      );
    }
    budget -= bytes.length;
    try {
      results.push(...parseBankStatement(bytes));
    } catch (error) {
      if (error instanceof BankStatementFileError) {
        throw new BankStatementFileError(error.reason, `${member.name}: ${error.message}`);
      }
      throw error;
    }
  }
  return results;
}
