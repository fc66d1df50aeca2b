/**
 * The only code that writes to the terminal. Results go to stdout, progress and diagnostics to
 * stderr; colour only on a TTY, and never under NO_COLOR or CI.
 */
import { readFileSync } from 'node:fs';
import { formatCodeFrame } from './code-frame.js';
import type { SiteError } from './errors.js';
import type { Progress, ProgressCounter } from './progress.js';

const useColour = (stream: NodeJS.WriteStream) =>
  Boolean(stream.isTTY) && !('NO_COLOR' in process.env) && !process.env.CI;
const paint = (stream: NodeJS.WriteStream, code: number, text: string) =>
  useColour(stream) ? `\u001b[${code}m${text}\u001b[0m` : text;

/** Whether a progress line is on stderr's terminal, unfinished: a line written meanwhile clears it first (the next count draws it again). */
let progressLine = false;

/** Writes to stderr, after clearing an unfinished progress line. */
function writeError(text: string): void {
  if (progressLine) process.stderr.write('\r\u001b[K');
  progressLine = false;
  process.stderr.write(text);
}

/** Writes a result line to stdout. */
export function logResult(message: string): void {
  if (progressLine && process.stdout.isTTY) writeError('');
  process.stdout.write(`${message}\n`);
}

/** Writes a progress or info line to stderr. */
export function logInfo(message: string): void {
  writeError(`${paint(process.stderr, 2, message)}\n`);
}

/** Writes a warning to stderr. */
export function logWarning(message: string): void {
  writeError(`${paint(process.stderr, 33, 'warning')}  ${message}\n`);
}

/** Writes errors as `file:line:col  field  message  (hint)`, with the code, to stderr. */
export function logErrors(errors: readonly SiteError[], options: { verbose?: boolean } = {}): void {
  for (const error of errors) {
    writeError(`${paint(process.stderr, 31, error.code)}  ${error.format()}\n`);
    const frame = sourceFrame(error);
    if (frame) writeError(`${paint(process.stderr, 2, frame)}\n`);
    if (options.verbose && error.cause instanceof Error && error.cause.stack) writeError(`${error.cause.stack}\n`);
  }
  writeError(`${paint(process.stderr, 31, `${errors.length} ${errors.length === 1 ? 'error' : 'errors'}`)}\n`);
}

/** Writes problems that did not stop the command, as `warning  CODE  file:line:col  field  message  (hint)`. */
export function logWarnings(warnings: readonly SiteError[]): void {
  for (const warning of warnings)
    writeError(`${paint(process.stderr, 33, 'warning')}  ${warning.code}  ${warning.format()}\n`);
}

/** Writes notes on the command (for --verbose), as `info  CODE  file:line:col  field  message  (hint)`. */
export function logInfos(infos: readonly SiteError[]): void {
  for (const info of infos) writeError(`${paint(process.stderr, 2, `info  ${info.code}  ${info.format()}`)}\n`);
}

/** Writes an unexpected failure (a bug, not bad input) to stderr. */
export function logCrash(error: unknown, options: { verbose?: boolean } = {}): void {
  const text =
    error instanceof Error ? (options.verbose ? (error.stack ?? error.message) : error.message) : String(error);
  writeError(`${paint(process.stderr, 31, 'internal error')}  ${text}\n`);
  if (!options.verbose) writeError('Run again with --verbose for the stack trace.\n');
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

/** Options of `createTerminalProgress`. */
export interface TerminalProgressOptions {
  /** Where the lines go (default stderr): on a TTY (and not under CI) one line updated in place, else plain lines. */
  stream?: Pick<NodeJS.WriteStream, 'write' | 'isTTY'>;
  /** Milliseconds from the build's start before anything is printed: a build that ends sooner prints nothing (default `SITE_PROGRESS_AFTER_MS`, else 3000). */
  afterMs?: number;
  /** Milliseconds between two plain lines (not a TTY; default `SITE_PROGRESS_EVERY_MS`, else 5000). */
  everyMs?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** A count as the issue and the summary write it: 10,000. */
const grouped = (count: number) => String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const millisecondsFrom = (value: string | undefined, fallback: number) =>
  value !== undefined && value.trim() !== '' && Number.isFinite(Number(value)) && Number(value) >= 0
    ? Number(value)
    : fallback;

/**
 * Progress on stderr for a build that runs longer than `afterMs`: the stages under way, with their
 * counts ("render 4,000/10,000 pages"), on a terminal as one line redrawn at most ten times a
 * second, elsewhere (CI, a pipe) as plain lines every `everyMs`; and each stage's final count
 * as it ends. Nothing is printed before `afterMs`.
 */
export function createTerminalProgress(options: TerminalProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  const afterMs = options.afterMs ?? millisecondsFrom(process.env.SITE_PROGRESS_AFTER_MS, 3000);
  const everyMs = options.everyMs ?? millisecondsFrom(process.env.SITE_PROGRESS_EVERY_MS, 5000);
  const inPlace = Boolean(stream.isTTY) && !process.env.CI;
  const started = now();
  let nextAt = started + afterMs;
  const active: { stage: string; total: number; unit: string; done: number }[] = [];
  const describe = (counter: (typeof active)[number]) =>
    `${counter.stage} ${grouped(Math.min(counter.done, counter.total))}/${grouped(counter.total)} ${counter.unit}`;
  const line = (text: string, final: boolean) => {
    if (inPlace) stream.write(`\r\u001b[K${text}${final ? '\n' : ''}`);
    else stream.write(`${text}\n`);
    if (stream === process.stderr) progressLine = inPlace && !final;
  };
  const show = (at: number) => {
    if (active.length) line(active.map(describe).join(' · '), false);
    nextAt = at + (inPlace ? 100 : everyMs);
  };
  return {
    begin(stage, total, unit) {
      const counter = { stage, total, unit, done: 0 };
      active.push(counter);
      let ended = false;
      const handle: ProgressCounter = {
        tick(count = 1) {
          counter.done += count;
          const at = now();
          if (at >= nextAt) show(at);
        },
        end() {
          if (ended) return;
          ended = true;
          active.splice(active.indexOf(counter), 1);
          const at = now();
          if (at < started + afterMs) return;
          // The stage's last count stays on its own line; the stages still under way are drawn again on their next tick.
          if (counter.total > 0) line(describe(counter), true);
          if (inPlace) nextAt = Math.min(nextAt, at);
        },
      };
      return handle;
    },
  };
}
