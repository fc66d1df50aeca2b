/** A few lines of source around a position, with a caret under the column. */

/** Formats lines `line-2 … line+1` of `text` with line numbers and a caret at `column` (1-based). */
export function formatCodeFrame(text: string, line: number, column = 1, context = 2): string {
  const lines = text.split(/\r?\n/);
  const first = Math.max(1, line - context);
  const last = Math.min(lines.length, line + 1);
  const width = String(last).length;
  const out: string[] = [];
  for (let number = first; number <= last; number++) {
    const marker = number === line ? '>' : ' ';
    out.push(`${marker} ${String(number).padStart(width)} | ${lines[number - 1] ?? ''}`);
    if (number === line) out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, column - 1))}^`);
  }
  return out.join('\n');
}
