import { describe, expect, it } from 'vitest';
import { beamedTuplets, beamRuns, repairVoice, voiceDuration, type TimedItem } from '../../src/assembly/measure-repair.js';
import { frac, toString } from '../../src/score/fraction.js';
import type { DurationType } from '../../src/score/model.js';
import { notatedDuration } from '../../src/score/timeline.js';

const item = (x: number, type: DurationType, dots = 0, isRest = false): TimedItem => ({ x, type, dots, isRest, duration: notatedDuration(type, dots) });
/** Notes of one value one beam joins, `count` of them from x on. */
const beamed = (x: number, type: DurationType, count: number, group: number): TimedItem[] =>
  Array.from({ length: count }, (_, k) => ({ ...item(x + k * 10, type), beamGroup: group }));
const ratios = (voice: readonly TimedItem[]) => voice.map((i) => (i.tuplet ? `${i.tuplet.actual}:${i.tuplet.normal}` : '-'));

describe('measure repair', () => {
  it('makes a lone rest a whole-measure rest', () => {
    const voice = [item(10, 'whole', 0, true)];
    repairVoice(voice, frac(3), [], 12);
    expect(voice[0]!.measureRest).toBe(true);
    expect(toString(voice[0]!.duration)).toBe('3');
  });

  it('turns the three notes under a tuplet mark into a triplet, ignoring a stray mark', () => {
    const voice = [item(0, 'quarter'), item(20, 'eighth'), item(30, 'eighth'), item(40, 'eighth'), item(60, 'half')];
    repairVoice(voice, frac(4), [30, 200], 12);
    expect(voice.map((i) => i.tuplet?.actual ?? 0)).toEqual([0, 3, 3, 3, 0]);
    expect(toString(voiceDuration(voice))).toBe('4');
  });

  it('makes no triplet of items that span no three of one value: a mark beside rests of two values is not theirs', () => {
    // An eighth, an eighth rest, then sixteenth triplets beamed by six: a sixteenth rest and five notes, two
    // marked; a third mark is read just before the sixteenth rest. Four beats in all.
    const voice = [item(0, 'eighth'), item(20, 'eighth', 0, true), item(40, '16th', 0, true), ...beamed(50, '16th', 5, 1), ...beamed(100, '16th', 6, 2), ...beamed(160, '16th', 6, 3)];
    expect(repairVoice(voice, frac(4), [36, 51, 81], 12)).toBe(true);
    expect(ratios(voice)).toEqual(['-', '-', ...Array.from({ length: 18 }, () => '3:2')]);
    expect(toString(voiceDuration(voice))).toBe('4');
  });

  it('reads unmarked groups of three as triplets only where marked ones came before', () => {
    const make = () => Array.from({ length: 12 }, (_, k) => item(k * 10, 'eighth'));
    const unlicensed = make();
    repairVoice(unlicensed, frac(4), [], 12, false);
    expect(unlicensed.every((i) => !i.tuplet)).toBe(true);
    const licensed = make();
    repairVoice(licensed, frac(4), [], 12, true);
    expect(licensed.every((i) => i.tuplet?.actual === 3)).toBe(true);
    expect(toString(voiceDuration(licensed))).toBe('4');
  });

  it('reads six unmarked quarters in a measure of four as two quarter-note triplets where marked ones came before', () => {
    const make = () => Array.from({ length: 6 }, (_, k) => item(k * 20, 'quarter'));
    const unlicensed = make();
    repairVoice(unlicensed, frac(4), [], 12, false);
    expect(ratios(unlicensed)).toEqual(['-', '-', '-', '-', '-', '-']);
    const licensed = make();
    expect(repairVoice(licensed, frac(4), [], 12, true)).toBe(true);
    expect(ratios(licensed)).toEqual(['3:2', '3:2', '3:2', '3:2', '3:2', '3:2']);
    // Half notes are no such run: three of them in a measure of four stay as printed.
    const halves = Array.from({ length: 3 }, (_, k) => item(k * 30, 'half'));
    repairVoice(halves, frac(4), [], 12, true);
    expect(ratios(halves)).toEqual(['-', '-', '-']);
  });

  it('reads beamed pairs under a "2" in compound time as duplets, only where that fills the measure', () => {
    // 12/8: a dotted quarter, a duplet (an eighth and two sixteenths), a dotted quarter, a duplet of eighths.
    const make = () => [
      item(0, 'quarter', 1),
      { ...item(30, 'eighth'), beamGroup: 1 },
      { ...item(40, '16th'), beamGroup: 1 },
      { ...item(50, '16th'), beamGroup: 1 },
      item(70, 'quarter', 1),
      ...beamed(100, 'eighth', 2, 2),
    ];
    const voice = make();
    expect(repairVoice(voice, frac(6), [40, 105], 12, false, true)).toBe(true);
    expect(ratios(voice)).toEqual(['-', '2:3', '2:3', '2:3', '-', '2:3', '2:3']);
    expect(toString(voiceDuration(voice))).toBe('6');
    // In simple time, or with one "2" not printed, the voice stays as read.
    const simple = make();
    repairVoice(simple, frac(6), [40, 105], 12, false, false);
    expect(ratios(simple).every((r) => r === '-')).toBe(true);
    const halfMarked = make();
    repairVoice(halfMarked, frac(6), [40], 12, false, true);
    expect(ratios(halfMarked).every((r) => r === '-')).toBe(true);
  });

  it('adds the one missed dot that makes the voice fit, and nothing when none does', () => {
    const voice = [item(0, 'half'), item(30, 'quarter')];
    repairVoice(voice, frac(4), [], 12);
    expect(voice[0]!.dots).toBe(1);
    const ambiguous = [item(0, 'quarter'), item(30, 'eighth'), item(40, 'eighth')];
    repairVoice(ambiguous, frac(3), [], 12);
    expect(ambiguous.map((i) => i.dots)).toEqual([0, 0, 0]);
  });

  it('reads beamed runs of three as triplets, unmarked, where that alone makes the voice fit', () => {
    // 3/4: three beamed groups of three eighths, no number printed over any of them.
    const voice = [...beamed(0, 'eighth', 3, 1), ...beamed(40, 'eighth', 3, 2), ...beamed(80, 'eighth', 3, 3)];
    expect(repairVoice(voice, frac(3), [], 12)).toBe(true);
    expect(ratios(voice)).toEqual(Array(9).fill('3:2'));
    expect(voice.map((i) => toString(i.duration))).toEqual(Array(9).fill('1/3'));
    expect(voice.map((i) => [i.tuplet?.start ?? false, i.tuplet?.stop ?? false])).toEqual([0, 1, 2].flatMap(() => [[true, false], [false, false], [false, true]]));
    expect(voice.every((i) => i.tuplet?.implied)).toBe(true);
    expect(toString(voiceDuration(voice))).toBe('3');
  });

  it('keeps a group under a printed number marked and the simile groups after it implied', () => {
    // 2/4: the first triplet has its "3" printed, the second has not.
    const voice = [...beamed(0, 'eighth', 3, 1), ...beamed(40, 'eighth', 3, 2)];
    expect(repairVoice(voice, frac(2), [10], 12)).toBe(true);
    expect(ratios(voice)).toEqual(Array(6).fill('3:2'));
    expect(voice.map((i) => i.tuplet?.implied ?? false)).toEqual([false, false, false, true, true, true]);
  });

  it('reads a beamed run of six sixteenths as a sextuplet where its "6" stands over the centre', () => {
    // 2/4: a sextuplet on the first beat (its number between the third and fourth notes), a quarter on the second.
    const voice = [...beamed(0, '16th', 6, 1), item(80, 'quarter')];
    expect(repairVoice(voice, frac(2), [26], 12)).toBe(true);
    expect(ratios(voice)).toEqual([...Array(6).fill('6:4'), '-']);
    expect(toString(voice[0]!.duration)).toBe('1/6');
    expect(toString(voiceDuration(voice))).toBe('2');
  });

  it('reads six beamed sixteenths as two triplets where a "3" stands over each half, or no number at all', () => {
    for (const marks of [[10, 40], [11], []]) {
      const voice = [...beamed(0, '16th', 6, 1), item(80, 'quarter')];
      expect(repairVoice(voice, frac(2), marks, 12)).toBe(true);
      expect(ratios(voice)).toEqual([...Array(6).fill('3:2'), '-']);
      expect(voice.map((i) => [i.tuplet?.start ?? false, i.tuplet?.stop ?? false]).slice(0, 6)).toEqual([0, 1].flatMap(() => [[true, false], [false, false], [false, true]]));
      expect(toString(voiceDuration(voice))).toBe('2');
    }
  });

  it('changes nothing where the beamed runs do not account for exactly what the voice runs over', () => {
    // 6/8: groups of three eighths are its beats; the voice fits and stays as printed.
    const compound = [...beamed(0, 'eighth', 3, 1), ...beamed(40, 'eighth', 3, 2)];
    expect(repairVoice(compound, frac(3), [], 12)).toBe(false);
    expect(ratios(compound)).toEqual(Array(6).fill('-'));
    // 4/4 overfull by more than the runs explain (a misread elsewhere): no tuplet is guessed.
    const overfull = [...beamed(0, 'eighth', 3, 1), item(40, 'half'), item(60, 'half')];
    expect(beamedTuplets(overfull, frac(4), [], 12)).toBe(false);
    expect(ratios(overfull)).toEqual(Array(5).fill('-'));
    expect(toString(voiceDuration(overfull))).toBe('11/2');
    // Unequal values under one beam (a dotted eighth, a sixteenth, an eighth) are no triplet.
    const dotted = [{ ...item(0, 'eighth', 1), beamGroup: 1 }, { ...item(10, '16th'), beamGroup: 1 }, { ...item(20, 'eighth'), beamGroup: 1 }, item(40, 'half'), item(60, 'quarter')];
    expect(beamedTuplets(dotted, frac(4), [], 12)).toBe(false);
  });

  it('reads beamed threes as triplets past a misread note where a "3" is printed over one, never leaving the voice short', () => {
    // 3/4 of sixteenth triplets in beams of three, one sixteenth read as a quarter: no exact reading fits.
    const misread = () => [...beamed(0, '16th', 3, 1), ...beamed(40, '16th', 3, 2), ...beamed(80, '16th', 3, 3), { ...item(120, '16th'), beamGroup: 4 }, { ...item(130, 'quarter'), beamGroup: 4 }, { ...item(140, '16th'), beamGroup: 4 }, ...beamed(160, '16th', 3, 5), ...beamed(200, '16th', 3, 6)];
    const shown = misread();
    expect(repairVoice(shown, frac(3), [10], 12)).toBe(false);
    expect(ratios(shown)).toEqual([...Array(9).fill('3:2'), '-', '-', '-', ...Array(6).fill('3:2')]);
    // Without a "3" over one of them (triplets elsewhere on the staff are no licence), nothing is guessed.
    const unshown = misread();
    repairVoice(unshown, frac(3), [], 12, true);
    expect(ratios(unshown)).toEqual(Array(18).fill('-'));
    // 6/8 overfull by a misread elsewhere, a "3" read over a beat: its beats as triplets would leave it short, so they stay.
    const compound = [...beamed(0, 'eighth', 3, 1), ...beamed(40, 'eighth', 3, 2), item(80, 'eighth', 1)];
    repairVoice(compound, frac(3), [10], 12, true);
    expect(ratios(compound)).toEqual(Array(7).fill('-'));
  });

  it('finds whole beams within a voice, leaving out rests and unbeamed notes', () => {
    const voice = [item(0, 'quarter'), ...beamed(10, 'eighth', 3, 7), item(50, 'eighth', 0, true), ...beamed(60, 'eighth', 2, 8)];
    expect(beamRuns(voice).map(({ run }) => run.map((i) => i.x))).toEqual([
      [10, 20, 30],
      [60, 70],
    ]);
  });

  it('reads a beamed pair beside a rest of its value as a triplet that takes the rest in', () => {
    // 3/8: sixteenth triplets, the second and third starting on a rest (|16 16 16|r16 16 16|r16 16 16|).
    const voice = [...beamed(0, '16th', 3, 1), item(40, '16th', 0, true), ...beamed(50, '16th', 2, 2), item(80, '16th', 0, true), ...beamed(90, '16th', 2, 3)];
    expect(repairVoice(voice, frac(3, 2), [], 12)).toBe(true);
    expect(ratios(voice)).toEqual(Array(9).fill('3:2'));
    expect(voice.map((i) => (i.tuplet?.start ? '[' : i.tuplet?.stop ? ']' : '.')).join('')).toBe('[.][.][.]');
    // A pair with a rest beside it is read so only where the beamed runs alone do not fit: in 4/4 the
    // triplet alone makes |8 8 8|r8|8 8|q.| fit, and the rest and pair stay as printed.
    const plain = [...beamed(0, 'eighth', 3, 1), item(40, 'eighth', 0, true), ...beamed(50, 'eighth', 2, 2), item(80, 'quarter', 1)];
    expect(repairVoice(plain, frac(4), [], 12)).toBe(true);
    expect(ratios(plain)).toEqual(['3:2', '3:2', '3:2', '-', '-', '-', '-']);
  });

  it('reads five beamed notes as a quintuplet before a tuplet mark makes three of them a triplet', () => {
    // 3/8: five thirty-seconds in the time of an eighth, then two eighths; the "5" is read as a tuplet mark.
    const voice = [...beamed(0, '32nd', 5, 1), item(60, 'eighth'), item(80, 'eighth')];
    expect(repairVoice(voice, frac(3, 2), [20], 12)).toBe(true);
    expect(ratios(voice)).toEqual([...Array(5).fill('5:4'), '-', '-']);
    expect(voice[0]!.tuplet?.implied).toBeUndefined();
  });

  it('reads the equal notes within a beam that also joins other values as a tuplet', () => {
    // 3/8: a sixteenth triplet, an eighth and another triplet, all under one beam.
    const voice = [...beamed(0, '16th', 3, 1), { ...item(40, 'eighth'), beamGroup: 1 }, ...beamed(50, '16th', 3, 1)];
    expect(beamRuns(voice).map(({ run, whole }) => `${run.length}${whole ? ' whole' : ''}`)).toEqual(['3', '1', '3']);
    expect(repairVoice(voice, frac(3, 2), [], 12)).toBe(true);
    expect(ratios(voice)).toEqual(['3:2', '3:2', '3:2', '-', '3:2', '3:2', '3:2']);
    // Five thirty-seconds and two eighths under one beam: a quintuplet and the eighths as printed.
    const quintuplet = [...beamed(0, '32nd', 5, 2), { ...item(60, 'eighth'), beamGroup: 2 }, { ...item(80, 'eighth'), beamGroup: 2 }];
    expect(repairVoice(quintuplet, frac(3, 2), [22], 12)).toBe(true);
    expect(ratios(quintuplet)).toEqual([...Array(5).fill('5:4'), '-', '-']);
  });

  it('reads five beamed sixteenths as a quintuplet only under a number over the middle one', () => {
    // 2/4: |16 16 16 16 16|q| lasts as long read as a quintuplet as read as two sixteenths and a
    // triplet; a "3" over the last three (nearest the fourth) says which.
    const make = () => [...beamed(0, '16th', 5, 1), item(60, 'quarter')];
    const lastThree = make();
    expect(repairVoice(lastThree, frac(2), [32], 12)).toBe(true);
    expect(ratios(lastThree)).toEqual(['-', '-', '3:2', '3:2', '3:2', '-']);
    const middle = make();
    expect(repairVoice(middle, frac(2), [21], 12)).toBe(true);
    expect(ratios(middle)).toEqual([...Array(5).fill('5:4'), '-']);
  });
});
