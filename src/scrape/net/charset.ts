/**
 * Turns a response body into a string whatever its charset (contract 2.14: HTML is returned
 * as UTF-8). The order follows the WHATWG encoding sniffing algorithm: BOM, then the
 * Content-Type charset, then a `<meta>` declaration near the start, then a default.
 *
 * Undeclared bodies are sniffed: UTF-8 when the bytes are valid UTF-8 (a modern undeclared
 * page is far more often UTF-8, and valid UTF-8 is almost never meant as anything else);
 * otherwise the encoding ICU's statistical detector (the `chardet` package) ranks first, as
 * browsers sniff with their own detectors (Firefox's chardetng) rather than trusting a
 * locale default: an undeclared Shift_JIS, GB18030 or KOI8-R page must not come out as
 * windows-1252 mojibake. windows-1252 remains the default when the detector has no answer
 * or names an encoding the WHATWG table does not know. JSON is always UTF-8.
 *
 * Labels are resolved by the WHATWG table (Node's TextDecoder knows it: `latin1` and
 * `iso-8859-1` mean windows-1252, `sjis` means Shift_JIS). Decoding is not left to
 * TextDecoder for legacy encodings: Node 20's windows-1252 decoder returns nothing for
 * 0x80..0x9F. windows-1252 is decoded here (exactly per WHATWG); other legacy encodings
 * by iconv-lite, falling back to TextDecoder (ICU) for the few iconv-lite lacks.
 */
import { detect } from 'chardet';
import iconv from 'iconv-lite';

/** `sniffed`: valid UTF-8, or the detector's guess for other bytes; `default`: windows-1252. */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'json' | 'sniffed' | 'default';

export interface DecodedBody {
  text: string;
  /** WHATWG encoding name, e.g. `utf-8`, `windows-1252`, `shift_jis`. */
  charset: string;
  source: CharsetSource;
}

/** How far into the body `<meta charset>` is looked for (WHATWG says 1024; real pages overrun it). */
export const META_SCAN_BYTES = 4096;

// WHATWG windows-1252 for 0x80..0x9F; the five undefined bytes map to the C1 control of the same value.
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

// WHATWG names iconv-lite spells differently.
const ICONV_NAMES: Record<string, string> = { 'x-mac-cyrillic': 'maccyrillic' };

/** The WHATWG encoding name for a label, or null when the label is unknown. */
export function resolveLabel(label: string): string | null {
  const trimmed = label.trim().replace(/^["']|["']$/g, '');
  if (/^x-user-defined$/i.test(trimmed)) return 'windows-1252';
  try {
    return new TextDecoder(trimmed).encoding;
  } catch {
    return null;
  }
}

/** Decodes bytes known to be in `charset` (a WHATWG name). */
export function decodeAs(bytes: Uint8Array, charset: string): string {
  if (charset === 'utf-8' || charset === 'utf-16le' || charset === 'utf-16be') {
    return new TextDecoder(charset, { ignoreBOM: false }).decode(bytes);
  }
  if (charset === 'windows-1252') return decodeWindows1252(bytes);
  const iconvName = ICONV_NAMES[charset] ?? charset;
  if (iconv.encodingExists(iconvName)) return iconv.decode(Buffer.from(bytes), iconvName);
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

function bomCharset(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

/** The charset parameter of a Content-Type header, or null. */
export function charsetParam(contentType: string | null | undefined): string | null {
  const match = /;\s*charset\s*=\s*("[^"]*"|[^;\s]*)/i.exec(contentType ?? '');
  return match?.[1] ? match[1].replace(/"/g, '') : null;
}

/** The charset a `<meta>` tag declares in the first bytes of an HTML document, or null. */
export function metaCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, META_SCAN_BYTES))
    .toString('latin1')
    .replace(/<!--[\s\S]*?-->/g, '');
  for (const tag of head.match(/<meta\s[^>]*>/gi) ?? []) {
    const direct = /\scharset\s*=\s*["']?\s*([^"'\s/>;]+)/i.exec(tag);
    if (direct?.[1]) return direct[1];
    if (/http-equiv\s*=\s*["']?\s*content-type/i.test(tag)) {
      const content = /content\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/i.exec(tag)?.[1] ?? '';
      const declared = /charset\s*=\s*["']?([^"'\s;]+)/i.exec(content)?.[1];
      if (declared) return declared;
    }
  }
  return null;
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function isJson(mime: string): boolean {
  return mime === 'application/json' || mime.endsWith('+json');
}

/** Decodes a response body to a string, choosing the charset as described above. */
export function decodeBody(bytes: Uint8Array, contentType: string | null | undefined): DecodedBody {
  const bom = bomCharset(bytes);
  if (bom)
    return {
      text: decodeAs(bytes.subarray(bom === 'utf-8' ? 3 : 2), bom),
      charset: bom,
      source: 'bom',
    };

  const declared = charsetParam(contentType);
  const fromHeader = declared ? resolveLabel(declared) : null;
  if (fromHeader)
    return { text: decodeAs(bytes, fromHeader), charset: fromHeader, source: 'header' };

  const mime = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (isJson(mime)) return { text: decodeAs(bytes, 'utf-8'), charset: 'utf-8', source: 'json' };

  if (mime === '' || mime.includes('html') || mime.includes('xml')) {
    const meta = metaCharset(bytes);
    let fromMeta = meta ? resolveLabel(meta) : null;
    // A page cannot be UTF-16 if its ASCII meta tag was readable: WHATWG treats it as UTF-8.
    if (fromMeta?.startsWith('utf-16')) fromMeta = 'utf-8';
    if (fromMeta) return { text: decodeAs(bytes, fromMeta), charset: fromMeta, source: 'meta' };
  }

  if (isValidUtf8(bytes))
    return { text: decodeAs(bytes, 'utf-8'), charset: 'utf-8', source: 'sniffed' };
  const guessed = sniffLegacy(bytes);
  if (guessed) return { text: decodeAs(bytes, guessed), charset: guessed, source: 'sniffed' };
  return { text: decodeWindows1252(bytes), charset: 'windows-1252', source: 'default' };
}

/**
 * The detector's guess for bytes that are not UTF-8, as a WHATWG name; null when it has none,
 * names a Unicode encoding (the bytes were just shown not to be UTF-8; UTF-16 without a BOM is
 * not guessed, as browsers do not) or one the WHATWG table does not know.
 */
function sniffLegacy(bytes: Uint8Array): string | null {
  const name = detect(bytes);
  if (!name || /^(?:utf|iso-2022)/i.test(name)) return null;
  return resolveLabel(name);
}
