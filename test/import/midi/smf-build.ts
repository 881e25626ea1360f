/**
 * Standard MIDI Files built byte by byte for the reader's tests, so that
 * every field (division, meta events, running status, broken lengths) is
 * under the test's control rather than a writer's.
 */

/** A variable-length quantity. */
export function vlq(value: number): number[] {
  const out = [value & 0x7f];
  for (let v = Math.floor(value / 128); v > 0; v = Math.floor(v / 128)) out.unshift((v & 0x7f) | 0x80);
  return out;
}

export function u32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

/** A file from a header and raw track bodies (events with their delta times). */
export function smfBytes(tracks: number[][], options: { format?: number; division?: number; announced?: number } = {}): Uint8Array {
  const division = options.division ?? 480;
  const announced = options.announced ?? tracks.length;
  const header = [0x4d, 0x54, 0x68, 0x64, ...u32(6), 0, options.format ?? 1, announced >> 8, announced & 0xff, (division >> 8) & 0xff, division & 0xff];
  return new Uint8Array([...header, ...tracks.flatMap((body) => [0x4d, 0x54, 0x72, 0x6b, ...u32(body.length), ...body])]);
}

/** Track events at absolute ticks; sorted (stably) and turned into delta times, with an end of track. */
export type TimedEvent = [ticks: number, bytes: number[]];

export function trackBody(events: TimedEvent[]): number[] {
  const sorted = [...events].sort((a, b) => a[0] - b[0]);
  const body: number[] = [];
  let now = 0;
  for (const [ticks, bytes] of sorted) {
    body.push(...vlq(ticks - now), ...bytes);
    now = ticks;
  }
  body.push(0, 0xff, 0x2f, 0);
  return body;
}

export const meta = (type: number, data: number[]) => [0xff, type, ...vlq(data.length), ...data];
export const text = (type: number, value: string) => meta(type, [...new TextEncoder().encode(value)]);
export const tempo = (bpm: number) => meta(0x51, [...u32(Math.round(60_000_000 / bpm))].slice(1));
export const timeSignature = (beats: number, beatType: number) => meta(0x58, [beats, Math.log2(beatType), 24, 8]);
export const keySignature = (fifths: number, minor = false) => meta(0x59, [fifths & 0xff, minor ? 1 : 0]);

export interface TrackSpec {
  name?: string;
  channel?: number;
  program?: number;
  /** Notes as [key, start, length] in quarters. */
  notes: [key: number, at: number, length: number][];
}

export interface SongSpec {
  ppq?: number;
  /** [quarter, beats, beatType]. */
  times?: [at: number, beats: number, beatType: number][];
  /** [quarter, fifths, minor]. */
  keys?: [at: number, fifths: number, minor?: boolean][];
  /** [quarter, bpm]. */
  tempos?: [at: number, bpm: number][];
  title?: string;
  /** Ticks added to each note-on and note-off, for playing-like timing: (index, 'on' | 'off') → ticks. */
  jitter?: (index: number, edge: 'on' | 'off') => number;
}

/** A format-1 file: a conductor track with the meta events, then one track per spec. */
export function song(tracks: TrackSpec[], spec: SongSpec = {}): Uint8Array {
  const ppq = spec.ppq ?? 480;
  const ticks = (q: number) => Math.round(q * ppq);
  const conductor: TimedEvent[] = [
    ...(spec.title === undefined ? [] : [[0, text(0x03, spec.title)] as TimedEvent]),
    ...(spec.times ?? [[0, 4, 4]]).map(([at, b, t]): TimedEvent => [ticks(at), timeSignature(b, t)]),
    ...(spec.keys ?? []).map(([at, f, m]): TimedEvent => [ticks(at), keySignature(f, m)]),
    ...(spec.tempos ?? [[0, 120]]).map(([at, bpm]): TimedEvent => [ticks(at), tempo(bpm)]),
  ];
  let index = 0;
  const bodies = tracks.map((track) => {
    const channel = track.channel ?? 0;
    const events: TimedEvent[] = [];
    if (track.name !== undefined) events.push([0, text(0x03, track.name)]);
    if (track.program !== undefined) events.push([0, [0xc0 | channel, track.program]]);
    for (const [key, at, length] of track.notes) {
      const i = index++;
      const on = ticks(at) + (spec.jitter?.(i, 'on') ?? 0);
      const off = ticks(at + length) + (spec.jitter?.(i, 'off') ?? 0);
      events.push([Math.max(0, on), [0x90 | channel, key, 80]]);
      events.push([Math.max(0, off), [0x80 | channel, key, 0]]);
    }
    // At one tick: names and programs first, then note-offs, then note-ons, as sequencers write them.
    const rank = (bytes: number[]) => ({ 0x80: 1, 0x90: 2 })[bytes[0]! & 0xf0] ?? 0;
    events.sort((a, b) => a[0] - b[0] || rank(a[1]) - rank(b[1]));
    return trackBody(events);
  });
  return smfBytes([trackBody(conductor), ...bodies], { division: ppq });
}
