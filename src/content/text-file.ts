/** Reading the text files of content/. */
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Diagnostics } from '../diagnostics.js';

/**
 * Reads a text file as UTF-8. Bytes that are not UTF-8 (a file saved in another encoding, or
 * binary) still read, as U+FFFD, but with a warning naming the file: nothing is lost silently.
 */
export function readTextFile(path: string, diagnostics: Diagnostics): string {
  const bytes = readFileSync(path);
  const binary = bytes.includes(0);
  if (binary || !isUtf8(bytes)) {
    diagnostics.warn({
      code: 'ENCODING',
      message: binary ? 'the file holds NUL bytes: it looks like a binary file, not text' : 'the file is not valid UTF-8 text',
      file: relative(process.cwd(), path),
    });
  }
  return bytes.toString('utf8');
}
