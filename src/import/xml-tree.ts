/**
 * A small, safe XML reader: bytes → a tree of elements.
 *
 * saxes is a strict, non-validating parser that never expands entities
 * declared in a DTD and never fetches anything, so "billion laughs" and
 * external-entity files fail as undefined entities instead of exhausting
 * memory. Limits on size and depth keep hostile input bounded.
 */
import { SaxesParser } from 'saxes';
import { OmrError } from '../errors.js';
import { MAX_XML_BYTES, MAX_XML_ELEMENTS } from './limits.js';

/**
 * A parsed element. Trees from {@link parseXml} are read-only: elements
 * without attributes or children share one frozen empty object and array.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated character data directly inside this element. */
  text: string;
}

export interface XmlLimits {
  /** Largest accepted document, in bytes. */
  maxBytes: number;
  /** Deepest accepted element nesting. */
  maxDepth: number;
  /** Most elements accepted (default {@link MAX_XML_ELEMENTS}); counted as they are read, before the tree grows past it. */
  maxElements?: number;
}

/** MusicXML nests about 10 levels deep; orchestral scores reach tens of megabytes. */
export const DEFAULT_XML_LIMITS: XmlLimits = { maxBytes: MAX_XML_BYTES, maxDepth: 64, maxElements: MAX_XML_ELEMENTS };

/** Attributes of the many elements that have none, shared rather than one empty object each. */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Children of the many leaf elements, shared rather than one empty array each; a parent gets its own at its first child. */
const NO_CHILDREN: XmlElement[] = Object.freeze([]) as unknown as XmlElement[];

/** Most distinct element names shared between elements; a real vocabulary has a few hundred. */
const MAX_SHARED_NAMES = 4096;

/** Longest text shared between elements: pitches, durations, types, numbers. */
const MAX_SHARED_TEXT = 16;

const WHITESPACE = /^\s*$/;

/** Decodes XML bytes honouring a byte-order mark or an `encoding` declaration. */
export function decodeXmlText(bytes: Uint8Array): string {
  const [b0, b1, b2] = bytes;
  if (b0 === 0xff && b1 === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (b0 === 0xfe && b1 === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return new TextDecoder('utf-8').decode(bytes);
  // UTF-16 without a BOM still starts with '<' and a zero byte.
  if (b0 === 0x3c && b1 === 0x00) return new TextDecoder('utf-16le').decode(bytes);
  if (b0 === 0x00 && b1 === 0x3c) return new TextDecoder('utf-16be').decode(bytes);
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
  let label = 'utf-8';
  if (declared && declared !== 'utf-8' && declared !== 'utf8') {
    try {
      new TextDecoder(declared);
      label = declared;
    } catch {
      // An unknown label: UTF-8 is the only sane guess.
    }
  }
  return new TextDecoder(label).decode(bytes);
}

/**
 * Parses an XML document. Throws `OmrError` with `code` (default
 * `INVALID_MUSICXML`) when the document is not well-formed or too large.
 */
export function parseXml(input: string | Uint8Array, limits: XmlLimits = DEFAULT_XML_LIMITS, code = 'INVALID_MUSICXML'): XmlElement {
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > limits.maxBytes) {
    throw new OmrError('FILE_TOO_LARGE', `The XML document is ${size} bytes; at most ${limits.maxBytes} are accepted.`);
  }
  const maxElements = limits.maxElements ?? MAX_XML_ELEMENTS;
  const text = typeof input === 'string' ? input : decodeXmlText(input);
  const parser = new SaxesParser({ position: true });
  const stack: XmlElement[] = [];
  // The tree is most of the memory a large score costs: each element shares its name with every
  // other of that name, short texts are shared too, and leaves share one empty attribute object
  // and one empty children array.
  const names = new Map<string, string>();
  const texts = new Map<string, string>();
  let elements = 0;
  let root: XmlElement | undefined;
  parser.on('opentag', (tag) => {
    if (stack.length >= limits.maxDepth) {
      throw new OmrError(code, `The XML nests deeper than ${limits.maxDepth} levels.`);
    }
    if (++elements > maxElements) {
      throw new OmrError('FILE_TOO_LARGE', `The XML document has more than ${maxElements} elements, the most accepted.`);
    }
    let name = names.get(tag.name);
    if (name === undefined) {
      name = tag.name;
      if (names.size < MAX_SHARED_NAMES) names.set(name, name);
    }
    const el: XmlElement = { name, attrs: sharedAttributes(tag.attributes as Record<string, string>), children: NO_CHILDREN, text: '' };
    const parent = stack[stack.length - 1];
    if (parent) {
      // Indentation before an element's first child is layout, not content.
      if (parent.children === NO_CHILDREN) {
        if (parent.text && WHITESPACE.test(parent.text)) parent.text = '';
        parent.children = [el];
      } else parent.children.push(el);
    } else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const addText = (t: string) => {
    const el = stack[stack.length - 1];
    // Indentation between child elements is dropped too; text beside children (mixed content) is kept.
    if (!el || (el.children.length > 0 && el.text === '' && WHITESPACE.test(t))) return;
    if (el.text === '' && t.length <= MAX_SHARED_TEXT) {
      let shared = texts.get(t);
      if (shared === undefined) {
        shared = t;
        if (texts.size < MAX_SHARED_NAMES) texts.set(t, t);
      }
      el.text = shared;
    } else el.text += t;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  try {
    parser.write(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).close();
  } catch (err) {
    if (err instanceof OmrError) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    throw new OmrError(code, `The file is not well-formed XML: ${detail}`, { cause: err });
  }
  if (!root) throw new OmrError(code, 'The file contains no XML element.');
  return root;
}

/** saxes gives every element a fresh attribute dictionary; one without attributes shares {@link NO_ATTRIBUTES}. */
function sharedAttributes(attributes: Record<string, string>): Record<string, string> {
  for (const _ in attributes) return attributes;
  return NO_ATTRIBUTES;
}

/** First child element with the given name. */
export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

/** All child elements with the given name. */
export function children(el: XmlElement | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

/** Trimmed text of the first child with the given name. */
export function childText(el: XmlElement | undefined, name: string): string | undefined {
  const c = child(el, name);
  return c ? c.text.trim() : undefined;
}
