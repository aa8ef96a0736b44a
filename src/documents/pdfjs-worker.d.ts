/** pdfjs ships no types for its parser's module; we only hand it back to pdfjs. */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
