import { describe, expect, it } from 'vitest';
import { toGray } from '../../src/image/gray.js';

describe('toGray', () => {
  it('keeps white white and black black, for RGB and RGBA', () => {
    const rgba = toGray({ width: 3, height: 1, channels: 4, data: new Uint8Array([255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 0, 0]) });
    expect([...rgba.data]).toEqual([255, 0, 255]); // the transparent pixel is paper
    const rgb = toGray({ width: 2, height: 1, channels: 3, data: new Uint8Array([255, 255, 255, 0, 128, 0]) });
    expect([...rgb.data]).toEqual([255, 75]);
  });
});
