/**
 * The only code that writes to the terminal. Results go to stdout, progress and diagnostics to
 * stderr; colour only on a TTY, and never under NO_COLOR or CI.
 */
import { readFileSync } from 'node:fs';
import { formatCodeFrame } from './code-frame.js';
import type { SiteError } from './errors.js';

const useColour = (stream: NodeJS.WriteStream) =>
  Boolean(stream.isTTY) && !('NO_COLOR' in process.env) && !process.env.CI;
const paint = (stream: NodeJS.WriteStream, code: number, text: string) =>
  useColour(stream) ? `\u001b[${code}m${text}\u001b[0m` : text;

/** Writes a result line to stdout. */
export function logResult(message: string): void {
  process.stdout.write(`${message}\n`);
}

/** Writes a progress or info line to stderr. */
export function logInfo(message: string): void {
  process.stderr.write(`${paint(process.stderr, 2, message)}\n`);
}

/** Writes a warning to stderr. */
export function logWarning(message: string): void {
  process.stderr.write(`${paint(process.stderr, 33, 'warning')}  ${message}\n`);
}

/** Writes errors as `file:line:col  field  message  (hint)`, with the code, to stderr. */
export function logErrors(errors: readonly SiteError[], options: { verbose?: boolean } = {}): void {
  for (const error of errors) {
    process.stderr.write(`${paint(process.stderr, 31, error.code)}  ${error.format()}\n`);
    const frame = sourceFrame(error);
    if (frame) process.stderr.write(`${paint(process.stderr, 2, frame)}\n`);
    if (options.verbose && error.cause instanceof Error && error.cause.stack)
      process.stderr.write(`${error.cause.stack}\n`);
  }
  process.stderr.write(
    `${paint(process.stderr, 31, `${errors.length} ${errors.length === 1 ? 'error' : 'errors'}`)}\n`,
  );
}

/** Writes problems that did not stop the command, as `warning  CODE  file:line:col  field  message  (hint)`. */
export function logWarnings(warnings: readonly SiteError[]): void {
  for (const warning of warnings)
    process.stderr.write(`${paint(process.stderr, 33, 'warning')}  ${warning.code}  ${warning.format()}\n`);
}

/** Writes notes on the command (for --verbose), as `info  CODE  file:line:col  field  message  (hint)`. */
export function logInfos(infos: readonly SiteError[]): void {
  for (const info of infos)
    process.stderr.write(`${paint(process.stderr, 2, `info  ${info.code}  ${info.format()}`)}\n`);
}

/** Writes an unexpected failure (a bug, not bad input) to stderr. */
export function logCrash(error: unknown, options: { verbose?: boolean } = {}): void {
  const text =
    error instanceof Error ? (options.verbose ? (error.stack ?? error.message) : error.message) : String(error);
  process.stderr.write(`${paint(process.stderr, 31, 'internal error')}  ${text}\n`);
  if (!options.verbose) process.stderr.write('Run again with --verbose for the stack trace.\n');
}

/** The code frame of an error whose file and line are known, or undefined. */
function sourceFrame(error: SiteError): string | undefined {
  if (!error.file || error.line === undefined) return undefined;
  try {
    return formatCodeFrame(readFileSync(error.file, 'utf8'), error.line, error.column);
  } catch {
    return undefined;
  }
}
