/**
 * The one collector of problems, passed to every loader (after vfile's `message`/`fail`/`info`):
 * `error` records what stops the build, `warn` what is only reported, `info` what is printed with
 * --verbose, and `fail` records an error and throws it, for a problem after which the loader cannot
 * go on. The records are `SiteError`s (code, position, field, hint), so the CLI, the dev overlay and
 * the tests read them as before. A `child` shares the records and fills in the file it is about.
 */
import { SiteError, SiteErrors, sortErrors, type Severity, type SiteErrorOptions } from './errors.js';

/** What a diagnostic says: the SiteError options but the severity, which the method decides. */
export type DiagnosticOptions = Omit<SiteErrorOptions, 'severity'>;

/** A collector of diagnostics. */
export interface Diagnostics {
  /** Records a problem that stops the build. */
  error(options: DiagnosticOptions): SiteError;
  /** Records a problem that is reported but does not fail the build. */
  warn(options: DiagnosticOptions): SiteError;
  /** Records a note printed only with --verbose. */
  info(options: DiagnosticOptions): SiteError;
  /** Records an error and throws it: the loader cannot go on. */
  fail(options: DiagnosticOptions): never;
  /** Records problems made elsewhere (a parser's SiteErrors), each with its own severity. */
  add(...problems: readonly SiteError[]): void;
  /** Throws the errors recorded so far (as one SiteError, or SiteErrors), when there are any. */
  throwIfErrors(): void;
  /** Whether an error (not a warning or info) has been recorded. */
  readonly hasErrors: boolean;
  /** Everything recorded, without repeats (one input read for several pages), sorted by place. */
  list(): SiteError[];
  /** The recorded diagnostics of one severity, as `list()`. */
  of(severity: Severity): SiteError[];
  /** A collector that records into the same list and fills in `file` where a diagnostic names none. */
  child(defaults: { file?: string }): Diagnostics;
}

/** Creates an empty collector. */
export function createDiagnostics(): Diagnostics {
  return collectorOver([], {});
}

function collectorOver(records: SiteError[], defaults: { file?: string }): Diagnostics {
  const record = (options: DiagnosticOptions, severity: Severity) => {
    const problem = new SiteError({ ...options, file: options.file ?? defaults.file, severity });
    records.push(problem);
    return problem;
  };
  const collector: Diagnostics = {
    error: (options) => record(options, 'error'),
    warn: (options) => record(options, 'warning'),
    info: (options) => record(options, 'info'),
    fail(options) {
      throw record(options, 'error');
    },
    add(...problems) {
      records.push(...problems);
    },
    throwIfErrors() {
      const errors = collector.of('error');
      if (errors.length === 1) throw errors[0];
      if (errors.length > 1) throw new SiteErrors(errors);
    },
    get hasErrors() {
      return records.some((problem) => problem.severity === 'error');
    },
    list: () => uniqueDiagnostics(records),
    of: (severity) => uniqueDiagnostics(records.filter((problem) => problem.severity === severity)),
    child: (more) => collectorOver(records, { ...defaults, ...more }),
  };
  return collector;
}

/** The diagnostics without repeats (same severity, code, place and message), sorted by place. */
export function uniqueDiagnostics(problems: readonly SiteError[]): SiteError[] {
  const seen = new Set<string>();
  return sortErrors(
    problems.filter((problem) => {
      const key = `${problem.severity} ${problem.code} ${problem.format()}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    }),
  );
}
