import { it } from 'vitest';
import { zipSync, unzipSync, strToU8 } from 'fflate';
import { readMusicXml } from '/work/main/src/import/musicxml/read-score.js';
it('probe', () => {
  const t0 = performance.now();
  const big = new Uint8Array(257 * 2 ** 20).fill(0x20);
  const z = zipSync({ 'score.xml': big }, { level: 1 });
  console.log('zip', z.length, performance.now() - t0);
  const t1 = performance.now();
  try { readMusicXml(z); } catch (e) { console.log((e as any).code, (e as Error).message, performance.now() - t1); }
  // lying header
  const small = zipSync({ 'score.xml': new Uint8Array(100000).fill(0x20) }, { level: 6 });
  const patched = small.slice();
  const dv = new DataView(patched.buffer);
  // local header uncompressed size at 22; central dir find 'PK\x01\x02'
  dv.setUint32(22, 10, true);
  for (let i = 0; i < patched.length - 4; i++) if (dv.getUint32(i, true) === 0x02014b50) dv.setUint32(i + 24, 10, true);
  try { const r = unzipSync(patched); console.log('lying', Object.values(r)[0]!.length); } catch (e) { console.log('lying err', (e as Error).message); }
  const bad = ['', 'x', '<', '<?xml version="1.0"?>', '<!DOCTYPE x [<!ENTITY a "b">]><score-partwise>&a;</score-partwise>',
   '<!DOCTYPE x [<!ENTITY a SYSTEM "file:///etc/passwd">]><score-partwise>&a;</score-partwise>'];
  for (const b of bad) { try { readMusicXml(b); console.log('ok?', b); } catch (e) { console.log(JSON.stringify(b), (e as any).code, (e as Error).message); } }
  try { readMusicXml(new Uint8Array(0)); } catch (e) { console.log('empty bytes', (e as any).code, (e as Error).message); }
});
