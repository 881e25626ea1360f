/**
 * Phone photos of pages that hold no music, made as the training data makes
 * photos of music (training/data/degrade.ts: curl, perspective, uneven light,
 * blur, noise): a page of text and a picture. Each must be refused with
 * NO_MUSIC_DETECTED and a page confidence of 0, never read as music.
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../src/image/png-encode.js';
import type { Raster } from '../../src/image/raster.js';
import { recognizeScore, type PageReport } from '../../src/recognize/recognize-score.js';
import { degradePhoto } from '../../training/data/degrade.js';

/** A4 at 150 dpi. */
const [WIDTH, HEIGHT] = [1240, 1754];

/** What a canvas drew, as one gray channel. */
function grayOf(canvas: Canvas): Raster {
  const rgba = canvas.getContext('2d').getImageData(0, 0, WIDTH, HEIGHT).data;
  const data = new Uint8Array(WIDTH * HEIGHT);
  for (let p = 0; p < data.length; p++) data[p] = Math.round((rgba[p * 4]! * 299 + rgba[p * 4 + 1]! * 587 + rgba[p * 4 + 2]! * 114) / 1000);
  return { width: WIDTH, height: HEIGHT, channels: 1, data };
}

/** A letter: forty lines of serif text with margins, a heading and a signature. */
function letterPage(): Raster {
  const canvas = createCanvas(WIDTH, HEIGHT);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, WIDTH, HEIGHT);
  g.fillStyle = '#111';
  g.font = 'bold 44px serif';
  g.fillText('Minutes of the meeting', 140, 180);
  g.font = '26px serif';
  const words = 'the committee agreed that the rehearsal schedule for the spring concert should move to Thursday evenings and that the hall be booked until June'.split(' ');
  for (let line = 0; line < 40; line++) {
    let text = '';
    for (let k = 0; k < 14; k++) text += `${words[(line * 7 + k * 3) % words.length]} `;
    g.fillText(text, 140, 260 + line * 34);
  }
  g.font = 'italic 30px serif';
  g.fillText('With kind regards,', 140, 1680);
  return grayOf(canvas);
}

/** A picture: a sky, hills, a house with windows, a tree. */
function picturePage(): Raster {
  const canvas = createCanvas(WIDTH, HEIGHT);
  const g = canvas.getContext('2d');
  const sky = g.createLinearGradient(0, 0, 0, HEIGHT);
  sky.addColorStop(0, '#6fa8dc');
  sky.addColorStop(1, '#f4f4f4');
  g.fillStyle = sky;
  g.fillRect(0, 0, WIDTH, HEIGHT);
  g.fillStyle = '#5b8c3a';
  g.beginPath();
  g.moveTo(0, 1100);
  g.bezierCurveTo(300, 900, 800, 1250, WIDTH, 1000);
  g.lineTo(WIDTH, HEIGHT);
  g.lineTo(0, HEIGHT);
  g.fill();
  g.fillStyle = '#a0522d';
  g.fillRect(380, 800, 420, 360);
  g.fillStyle = '#7b2d12';
  g.beginPath();
  g.moveTo(350, 800);
  g.lineTo(590, 620);
  g.lineTo(830, 800);
  g.fill();
  g.fillStyle = '#fffbe0';
  for (const [x, y] of [[430, 860], [660, 860], [430, 1000]] as const) g.fillRect(x, y, 90, 90);
  g.fillStyle = '#3d2b1f';
  g.fillRect(1000, 900, 40, 300);
  g.fillStyle = '#2e6b2e';
  g.beginPath();
  g.arc(1020, 860, 130, 0, Math.PI * 2);
  g.fill();
  return grayOf(canvas);
}

describe('phone photos of pages without music', () => {
  it.each([
    ['a letter of text', letterPage],
    ['a picture', picturePage],
  ])('refuses %s with NO_MUSIC_DETECTED and a page confidence of 0', { timeout: 120_000 }, async (_, draw) => {
    const photo = degradePhoto(draw(), 3).image;
    const reports: PageReport[] = [];
    const error = await recognizeScore([{ filename: 'photo.png', data: encodePng(photo) }], { onPage: (r) => reports.push(r) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NO_MUSIC_DETECTED' });
    expect(reports.map((r) => [r.page, r.confidence, r.skipped?.code])).toEqual([[0, 0, 'NO_MUSIC_DETECTED']]);
  });
});
