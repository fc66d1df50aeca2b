/** One Lucide icon module: the icon as an SVG string. */
declare module 'lucide-static/dist/esm/icons/*.mjs' {
  const svg: string;
  export default svg;
}
