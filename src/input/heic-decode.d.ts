// heic-decode ships no types; these cover what heic.ts uses.
declare module 'heic-decode' {
  export interface DecodedHeicImage {
    width: number;
    height: number;
    /** RGBA, row by row. */
    data: Uint8ClampedArray;
  }

  /** A top-level image of the file, its size known (after its rotation and mirroring) before it is decoded. */
  export interface HeicImage {
    width: number;
    height: number;
    decode(): Promise<DecodedHeicImage>;
  }

  export interface HeicDecode {
    /** Decodes the first top-level image. */
    (input: { buffer: Uint8Array }): Promise<DecodedHeicImage>;
    /** Parses the file; `dispose` frees it once its images are decoded. */
    all(input: { buffer: Uint8Array }): Promise<HeicImage[] & { dispose(): void }>;
  }

  const decode: HeicDecode;
  export default decode;
}
