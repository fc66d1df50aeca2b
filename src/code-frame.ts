/** A few lines of source around a position, with a caret under the column. */

/** Characters of a source line shown at most; a longer line is cut around the column with "…". */
const maxLineWidth = 120;

/** Formats lines `line-2 … line+1` of `text` with line numbers and a caret at `column` (1-based). */
export function formatCodeFrame(text: string, line: number, column = 1, context = 2): string {
  const lines = text.split(/\r?\n/);
  const first = Math.max(1, line - context);
  const last = Math.min(lines.length, line + 1);
  const width = String(last).length;
  // One window for every line, placed so the column is visible.
  const start = Math.max(
    0,
    Math.min(column - 1 - Math.floor(maxLineWidth / 2), (lines[line - 1]?.length ?? 0) - maxLineWidth),
  );
  // A context line ends before the window of the error's line: it is shown from as far right as it fits, not blank.
  const clip = (source: string) => {
    const from = Math.min(start, Math.max(0, source.length - maxLineWidth));
    if (source.length <= maxLineWidth && from === 0) return source;
    const shown = source.slice(from, from + maxLineWidth);
    return `${from > 0 ? '…' : ''}${shown}${from + maxLineWidth < source.length ? '…' : ''}`;
  };
  const out: string[] = [];
  for (let number = first; number <= last; number++) {
    const marker = number === line ? '>' : ' ';
    out.push(`${marker} ${String(number).padStart(width)} | ${clip(lines[number - 1] ?? '')}`);
    if (number === line)
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, column - 1 - start + (start > 0 ? 1 : 0)))}^`);
  }
  return out.join('\n');
}
