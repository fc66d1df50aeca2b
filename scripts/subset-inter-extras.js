// Regenerates templates/styles/fonts/inter-extras-{400,700}.woff2: the few glyphs the Mendwise
// site's text uses that Fontsource's Latin subset of Inter lacks (arrows, ∞, the ₂ of "CO₂"), so
// they are set in Inter rather than a fallback font. The stylesheet loads them by `unicode-range`,
// so only a page using one of them fetches the file.
//
// The tools stay outside the project (its dependencies do not change):
//   mkdir /tmp/fontwork && cd /tmp/fontwork && npm init -y && npm i inter-ui@4.1.1 subset-font@2.9.0
//   node scripts/build-lib.js && node bin/site.js build --out /tmp/site-dist
//   node scripts/subset-inter-extras.js /tmp/fontwork /tmp/site-dist
// It scans the text of every page of the built site for code points outside Fontsource's Latin
// `unicode-range`, writes the two files, and prints the `unicode-range` the @font-face rules in
// templates/styles/main.css must name. Inter's licence (OFL-1.1) is beside the files.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [toolsDir, distDir] = process.argv.slice(2);
if (!toolsDir || !distDir)
  throw new Error(
    'usage: node scripts/subset-inter-extras.js <folder with inter-ui and subset-font installed> <built site>',
  );
const requireTool = createRequire(join(toolsDir, 'package.json'));
const subsetFont = requireTool('subset-font');

/** Fontsource's Latin `unicode-range` as [first, last] code points. */
const latin = JSON.parse(readFileSync(join(root, 'node_modules/@fontsource/inter/unicode.json'), 'utf8'))
  .latin.split(',')
  .map((range) =>
    range
      .trim()
      .replace(/^U\+/i, '')
      .split('-')
      .map((hex) => parseInt(hex, 16)),
  )
  .map(([first, last]) => [first, last ?? first]);

function htmlFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return htmlFiles(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

/** The text a page shows: its text nodes and the attributes read out or shown, entities decoded. */
function pageText(html) {
  const body = html.replace(/<(script|style)\b[\s\S]*?<\/\1>/g, '');
  const parts = [
    ...body.matchAll(/>([^<]*)</g),
    ...body.matchAll(/\s(?:alt|title|aria-label|placeholder|value)="([^"]*)"/g),
  ].map((match) => match[1]);
  return parts
    .join(' ')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#([0-9]+);/g, (_, decimal) => String.fromCodePoint(Number(decimal)));
}

const missing = new Set();
for (const file of htmlFiles(distDir)) {
  for (const char of pageText(readFileSync(file, 'utf8'))) {
    const point = char.codePointAt(0);
    if (point > 0x20 && !latin.some(([first, last]) => point >= first && point <= last)) missing.add(point);
  }
}
const points = [...missing].sort((a, b) => a - b);
const text = String.fromCodePoint(...points);
for (const [weight, source] of [
  [400, 'Inter-Regular.woff2'],
  [700, 'Inter-Bold.woff2'],
]) {
  const font = readFileSync(requireTool.resolve(`inter-ui/web/${source}`));
  const subset = await subsetFont(font, text, { targetFormat: 'woff2' });
  writeFileSync(join(root, `templates/styles/fonts/inter-extras-${weight}.woff2`), subset);
  process.stdout.write(`inter-extras-${weight}.woff2: ${subset.length} bytes\n`);
}
process.stdout.write(
  `unicode-range: ${points.map((point) => `U+${point.toString(16).toUpperCase().padStart(4, '0')}`).join(', ')}\n`,
);
