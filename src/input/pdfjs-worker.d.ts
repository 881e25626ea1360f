// pdfjs-dist ships no types for its worker module; only its presence matters to pdf-platform.ts.
declare module 'pdfjs-dist/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
