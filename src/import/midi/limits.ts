/**
 * Bounds the MIDI reader applies before it does any real work, so that a
 * hostile or broken file is refused quickly instead of taking minutes or
 * gigabytes. Real music stays far inside them: a symphony in MIDI holds some
 * 50,000 notes over 20–40 tracks.
 */

/** Most note-ons in one file. */
export const MAX_MIDI_NOTES = 200_000;

/** Most track chunks in one file. */
export const MAX_MIDI_TRACKS = 256;

/**
 * Most note-ons in one channel of one track (a long piano piece has some
 * 20,000). @tonejs/midi pairs each note-on with its note-off by taking it
 * off the front of an array and splicing the note-off out of another, which
 * costs time quadratic in the notes of a track, and worse once the arrays
 * outgrow the cache: 30,000 notes take about 0.4 s, 40,000 two seconds,
 * 200,000 over half a minute.
 */
export const MAX_TRACK_NOTES = 30_000;

/**
 * Most note-off comparisons @tonejs/midi may make while pairing notes (see
 * `pairingWork` in smf-scan.ts). Stray note-offs and note-ons that never end
 * make it scan a track's note-offs again and again; 2 × 10⁸ comparisons take
 * about half a second.
 */
export const MAX_PAIRING_WORK = 200_000_000;

/**
 * Longest text event (track name, lyric, marker …). The MIDI parser turns a
 * text into a string with one function argument per byte, which overflows
 * the stack somewhere past 100,000.
 */
export const MAX_TEXT_BYTES = 65_536;

/**
 * Most measures over all parts of the score (parts × measures): a
 * 1,000-measure symphony in 40 parts has 40,000. Silence costs a MIDI file
 * nothing — one note ten thousand bars after another is a few bytes — but
 * every measure of it costs the score, and whatever writes it, in full.
 */
export const MAX_MEASURES = 50_000;
