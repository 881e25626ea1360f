/**
 * A large, valid MusicXML score of about `bytes` bytes, written as MuseScore
 * writes one (indented, a voice, type and stem on every note), for tests and
 * measurements of imports that take the reader seconds. Generated, so no
 * large fixture is committed.
 */
const STEPS = ['C', 'D', 'E', 'F', 'G', 'A', 'B'];
/** Parts the notes are spread over: an orchestral score's order of magnitude. */
const PARTS = 20;

export function largeMusicXml(bytes: number): Uint8Array {
  const note = (i: number) =>
    `      <note default-x="${80 + (i % 4) * 40}" default-y="-${(i % 7) * 5}">\n` +
    `        <pitch>\n          <step>${STEPS[i % 7]}</step>\n          <octave>${4 + (i % 2)}</octave>\n          </pitch>\n` +
    `        <duration>1</duration>\n        <voice>1</voice>\n        <type>quarter</type>\n        <stem>up</stem>\n        </note>\n`;
  const measure = (n: number) => `    <measure number="${n}" width="200">\n${[0, 1, 2, 3].map((i) => note(n + i)).join('')}      </measure>\n`;
  const measureBytes = measure(100).length;
  const measures = Math.max(1, Math.round(bytes / PARTS / measureBytes));
  const attributes = '<attributes><divisions>1</divisions><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>';
  const partList = Array.from({ length: PARTS }, (_, p) => `<score-part id="P${p + 1}"><part-name>Part ${p + 1}</part-name></score-part>`).join('');
  const chunks: string[] = [`<?xml version="1.0" encoding="UTF-8"?>\n<score-partwise version="4.0"><part-list>${partList}</part-list>\n`];
  for (let p = 0; p < PARTS; p++) {
    chunks.push(`  <part id="P${p + 1}">\n`);
    for (let m = 1; m <= measures; m++) chunks.push(m === 1 ? measure(m).replace('\n', `\n${attributes}\n`) : measure(m));
    chunks.push('  </part>\n');
  }
  chunks.push('</score-partwise>\n');
  return new TextEncoder().encode(chunks.join(''));
}
