/**
 * The XML writer behind the MusicXML export: layout, escaping, and what it
 * leaves out, on small trees whose whole output can be read at a glance.
 */
import { describe, expect, it } from 'vitest';
import { parseXml } from '../../src/import/xml-tree.js';
import { escapeAttribute, escapeText, writeXmlDocument, XmlNode } from '../../src/exports/xml-writer.js';

describe('writeXmlDocument', () => {
  it('indents elements by depth, keeps text on its element\'s line and closes empty elements', () => {
    const root = new XmlNode('note', { 'print-object': 'no' });
    const pitch = root.ele('pitch');
    pitch.ele('step').txt('C');
    pitch.ele('octave').txt('4');
    root.ele('dot');
    root.ele('beam', { number: '1' }).txt('begin');
    expect(writeXmlDocument(root)).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<note print-object="no">',
        '  <pitch>',
        '    <step>C</step>',
        '    <octave>4</octave>',
        '  </pitch>',
        '  <dot/>',
        '  <beam number="1">begin</beam>',
        '</note>',
      ].join('\n'),
    );
  });

  it('writes the DOCTYPE after the declaration', () => {
    const xml = writeXmlDocument(new XmlNode('score-partwise'), { name: 'score-partwise', publicId: '-//P//EN', systemId: 'http://x/p.dtd' });
    expect(xml).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE score-partwise PUBLIC "-//P//EN" "http://x/p.dtd">\n<score-partwise/>');
  });

  it('closes an element whose only text is empty, and writes no attribute whose value is undefined', () => {
    const root = new XmlNode('lyric', { number: '1', name: undefined });
    root.ele('text').txt('');
    expect(writeXmlDocument(root).split('\n').slice(1)).toEqual(['<lyric number="1">', '  <text/>', '</lyric>']);
  });

  it('keeps attributes in the order given', () => {
    const root = new XmlNode('supports', { element: 'print', attribute: 'new-page', type: 'yes', value: 'yes' });
    expect(writeXmlDocument(root)).toContain('<supports element="print" attribute="new-page" type="yes" value="yes"/>');
  });

  it('puts each text of an element that mixes text and elements on a line of its own', () => {
    const root = new XmlNode('p');
    root.txt('a').ele('b').txt('c');
    root.txt('');
    expect(writeXmlDocument(root).split('\n').slice(1)).toEqual(['<p>', '  a', '  <b>c</b>', '</p>']);
  });

  it('writes text and attributes that a parser reads back exactly', () => {
    const tricky = 'Fish & <Chips> "q" \'s\' &amp; &#38; ]]> \u00e9\u4e50\u{1d11e}';
    const root = new XmlNode('credit-words', { justify: tricky });
    root.txt(tricky);
    const parsed = parseXml(writeXmlDocument(root));
    expect(parsed.text).toBe(tricky);
    expect(parsed.attrs.justify).toBe(tricky);
  });
});

describe('escaping', () => {
  it('escapes every ampersand, entity-like or not, and the angle brackets', () => {
    expect(escapeText('a & b &amp; &#1; <c>')).toBe('a &amp; b &amp;amp; &amp;#1; &lt;c&gt;');
  });

  it('escapes double quotes in attribute values only', () => {
    expect(escapeText('"x"')).toBe('"x"');
    expect(escapeAttribute('"x" & y')).toBe('&quot;x&quot; &amp; y');
  });

  it('drops control characters, unpaired surrogates and U+FFFE/U+FFFF, and keeps tab, newlines and astral characters', () => {
    expect(escapeText('a\u0000b\u0008c\u000bd\u001fe\ud800f\udc00g\ufffeh\uffffi')).toBe('abcdefghi');
    expect(escapeText('\t\n\r\u{1d11e}\ud834\udd1e')).toBe('\t\n\r\u{1d11e}\u{1d11e}');
  });
});
