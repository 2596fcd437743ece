import { XMLParser, XMLValidator } from 'fast-xml-parser';
import iconv from 'iconv-lite';

// Reading of ISO 20022 XML messages (pain, camt) shared by the bank-file parsers: bytes decoded by
// their XML declaration, no DTD and no entity expansion, namespace prefixes dropped from element names.

/** An element as fast-xml-parser gives it: children by name, attributes as `@name`, text as `#text`. */
export type XmlNode = { [key: string]: unknown };

/** Why a file could not be read as an ISO 20022 document; the parsers map it onto their own error. */
export type XmlReadFailure = 'not_xml' | 'doctype' | 'unknown_message';

/** Parser options: attributes kept, values kept as text (ids like `00123` stay strings), no entities. */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
  // Namespace prefixes (`<ns2:Ntry>`) are dropped from element names; `xmlns` attributes stay.
  transformTagName: (name) => name.slice(name.indexOf(':') + 1),
});

/** The five predefined XML entities and character references; nothing else is ever expanded. */
function decodeXmlText(value: string): string {
  return value.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (entity, name: string) => {
    if (name === 'lt') return '<';
    if (name === 'gt') return '>';
    if (name === 'amp') return '&';
    if (name === 'quot') return '"';
    if (name === 'apos') return "'";
    const code = name.startsWith('#x') ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

/** The child elements of a value (one element or a repeated one), as an array; text values dropped. */
export function asArray(value: unknown): XmlNode[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter(
    (item): item is XmlNode => typeof item === 'object' && item !== null,
  );
}

/** The first child element `name` of `node`, or undefined. */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return asArray(node?.[name])[0];
}

/** Text of every element at `path` under `node` (`'RmtInf/Ustrd'`), in document order, entities decoded. */
export function texts(node: XmlNode | undefined, path: string): string[] {
  const names = path.split('/');
  const last = names.pop() ?? '';
  let current = node;
  for (const name of names) current = child(current, name);
  const value = current?.[last];
  return (Array.isArray(value) ? value : [value]).flatMap((single: unknown) => {
    if (typeof single === 'string') return [decodeXmlText(single)];
    if (typeof single === 'object' && single !== null && typeof (single as XmlNode)['#text'] === 'string') {
      return [decodeXmlText((single as XmlNode)['#text'] as string)];
    }
    return [];
  });
}

/** Text of the first element at `path` under `node` (`'Rsn/Cd'`), or undefined. */
export function text(node: XmlNode | undefined, path: string): string | undefined {
  return texts(node, path)[0];
}

/**
 * An ISO 20022 decimal amount (`12.3`, `1250`, `19.90000`) in cents (1230, 125000, 1990); undefined when
 * it is not a non-negative decimal of at most 13 integer digits, or is finer than cents (`19.905`).
 */
export function decimalToCents(value: string): number | undefined {
  const match = /^(\d{1,13})(?:\.(\d{1,5}))?$/.exec(value);
  if (!match) return undefined;
  const [, whole = '', fraction = ''] = match;
  if (/[1-9]/.test(fraction.slice(2))) return undefined;
  return Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
}

/** Bytes decoded by the encoding their XML declaration names (UTF-8 by default; BOM dropped). */
function decode(file: string | Uint8Array, fail: (reason: XmlReadFailure, message: string) => Error): string {
  if (typeof file === 'string') return file.replace(/^\uFEFF/, '');
  const head = Buffer.from(file.subarray(0, 200)).toString('latin1');
  const declared = /^(?:\uFEFF|ï»¿)?<\?xml[^>]*encoding=["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1] ?? 'utf-8';
  if (!iconv.encodingExists(declared)) throw fail('not_xml', `unknown encoding ${declared}`);
  return iconv.decode(Buffer.from(file), declared).replace(/^\uFEFF/, '');
}

/**
 * Reads an ISO 20022 message: `file` is text, or bytes in the encoding its XML declaration names (UTF-8
 * when none). Refuses a DOCTYPE (entity expansion is an attack vector) and XML that is not well-formed.
 * Returns the root `Document` element and the namespaces it declares (`xmlns`, `xmlns:prefix`), which
 * tell the message and its version.
 *
 * @throws the error `fail` makes: `not_xml` (unknown encoding, not well-formed, with the parser's message
 * and line), `doctype`, `unknown_message` (the root element is not `Document`).
 */
export function readIso20022Document(
  file: string | Uint8Array,
  fail: (reason: XmlReadFailure, message: string) => Error,
): { root: XmlNode; namespaces: string[] } {
  const xml = decode(file, fail);
  if (/<!DOCTYPE/i.test(xml)) throw fail('doctype', 'the file declares a DOCTYPE, which is refused');
  const wellFormed = XMLValidator.validate(xml);
  if (wellFormed !== true) {
    const { msg, line } = wellFormed.err;
    throw fail('not_xml', `not well-formed XML: ${msg} (line ${line})`);
  }
  const parsed = parser.parse(xml) as XmlNode;
  const root = child(parsed, 'Document');
  if (!root) throw fail('unknown_message', 'the root element is not Document');
  const namespaces = Object.entries(root)
    .filter(([key]) => key === '@xmlns' || key.startsWith('@xmlns:'))
    .map(([, value]) => String(value));
  return { root, namespaces };
}
