/**
 * A small XML writer: a tree of elements with attributes and text, written
 * out with an XML declaration, an optional DOCTYPE and two-space indentation.
 *
 * It is all the MusicXML writer needs, in plain JavaScript that runs the
 * same in Node, browsers and workers, so the browser build carries no XML
 * library and no Node module for a bundler to stand in for.
 *
 * The layout is that of a pretty-printing DOM serializer: one element a
 * line, indented by depth; an element that holds only text keeps it on its
 * own line (`<step>C</step>`); one with neither children nor text closes
 * itself (`<dot/>`). Text is never re-indented: an element that mixes text
 * and elements (MusicXML has none) puts each text on a line of its own.
 */

/** The `<!DOCTYPE name PUBLIC "publicId" "systemId">` line. */
export interface XmlDoctype {
  name: string;
  publicId: string;
  systemId: string;
}

/** Attribute values by name; an undefined value writes no attribute. */
export type XmlAttributes = Record<string, string | undefined>;

/** The indentation of one level of nesting. */
const INDENT = '  ';

/** One element being written: its attributes in the order given, then its children in the order added. */
export class XmlNode {
  private readonly children: (XmlNode | string)[] = [];
  private readonly attributes: [string, string][] = [];

  constructor(readonly name: string, attributes: XmlAttributes = {}) {
    for (const [key, value] of Object.entries(attributes)) if (value !== undefined) this.attributes.push([key, value]);
  }

  /** Appends a child element and returns it, to fill in. */
  ele(name: string, attributes?: XmlAttributes): XmlNode {
    const child = new XmlNode(name, attributes);
    this.children.push(child);
    return child;
  }

  /** Appends text (escaped when written) and returns this element, as `ele(…).txt(…)` reads. */
  txt(text: string): this {
    this.children.push(text);
    return this;
  }

  /** Writes this element and everything in it, one line an element, into `lines`. */
  write(lines: string[], depth: number): void {
    const indent = INDENT.repeat(depth);
    let open = `${indent}<${this.name}`;
    for (const [key, value] of this.attributes) open += ` ${key}="${escapeAttribute(value)}"`;
    if (this.children.every((c) => typeof c === 'string')) {
      const text = (this.children as string[]).map(escapeText).join('');
      lines.push(text === '' ? `${open}/>` : `${open}>${text}</${this.name}>`);
      return;
    }
    lines.push(`${open}>`);
    for (const child of this.children) {
      if (typeof child !== 'string') child.write(lines, depth + 1);
      else if (child !== '') lines.push(`${INDENT.repeat(depth + 1)}${escapeText(child)}`);
    }
    lines.push(`${indent}</${this.name}>`);
  }
}

/** The whole document: declaration, DOCTYPE when given, and the root element, lines joined by `\n` with no newline at the end. */
export function writeXmlDocument(root: XmlNode, doctype?: XmlDoctype): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  if (doctype) lines.push(`<!DOCTYPE ${doctype.name} PUBLIC "${doctype.publicId}" "${doctype.systemId}">`);
  root.write(lines, 0);
  return lines.join('\n');
}

/**
 * Characters XML 1.0 cannot carry at all, not even as references: C0 controls other than tab, line feed and
 * carriage return, unpaired surrogates, U+FFFE and U+FFFF. Recognised text may hold them; they are dropped so
 * the document stays well formed.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text content: every `&` and `<` escaped, and `>` so that `]]>` never appears. */
export function escapeText(text: string): string {
  return text.replace(NOT_XML_CHAR, '').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A double-quoted attribute value: as text, and `"` too. */
export function escapeAttribute(value: string): string {
  return escapeText(value).replaceAll('"', '&quot;');
}
