/** CRC-32 as PNG (and zlib, ZIP) define it, for the PNG encoder and decoder alike; the table is built on first use. */
let table: Uint32Array | undefined;

export function crc32(bytes: Uint8Array): number {
  const t = (table ??= makeTable());
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = t[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function makeTable(): Uint32Array {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
}
