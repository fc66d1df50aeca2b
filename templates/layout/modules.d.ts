/** One Lucide icon module: the icon as an SVG string. */
declare module 'lucide-static/dist/esm/icons/*.mjs' {
  const svg: string;
  export default svg;
}

/** The QR code encoder of `qrcode` (its core, without the PNG and terminal renderers). */
declare module 'qrcode/lib/core/qrcode.js' {
  export function create(
    text: string,
    options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' },
  ): { modules: { size: number; get(row: number, column: number): number | boolean } };
}
