/**
 * The admin writes text files as editors and git expect them: ending with a newline, so a save
 * does not show "No newline at end of file" in every diff. Pure.
 */

/** `text` ending with one line break ("" stays empty; a text that ends with one is left as it is). */
export function withFinalNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}
