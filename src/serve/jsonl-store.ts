/**
 * An append-only file of JSON lines (contact submissions, booking requests, the audit log). An
 * append resolves only once its whole line is written and flushed to disk; if any part fails (a
 * short write, a full disk), the file is cut back to its length before the append, so no torn
 * line is left for the next record to be glued onto, and the append rejects. The file and its
 * folder are private to the server's user.
 *
 * Every append, and every rewrite (`rewriteJsonLines`: the admin inbox's deletions,
 * `site admin prune-inbox`), holds the file's lock (file-lock.ts): one queue per file in the
 * process, shared by all its stores, and a lock file across processes. So lines never interleave,
 * and a rewrite, which reads the file, writes a temp file beside it and renames it into place,
 * never drops a line appended meanwhile: that append waits, and lands in the new file.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { withFileLock } from './file-lock.js';

/** The file operations the store uses (tests inject failures through them). */
export interface StoreFileSystem {
  open(path: string, flags: string, mode: number): Promise<Pick<FileHandle, 'stat' | 'chmod' | 'read' | 'write' | 'sync' | 'truncate' | 'close'>>;
}

/** Options of `createJsonLinesStore`. */
export interface JsonLinesStoreOptions {
  fileSystem?: StoreFileSystem;
}

/** An append-only JSON-lines file. */
export interface JsonLinesStore {
  /** Appends one record as a line; resolves once it is durable. */
  append(record: unknown): Promise<void>;
  readonly file: string;
}

/** Opens (lazily) the store at `file`. */
export function createJsonLinesStore(file: string, options: JsonLinesStoreOptions = {}): JsonLinesStore {
  const fileSystem: StoreFileSystem = options.fileSystem ?? { open };

  async function write(line: Buffer): Promise<void> {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const handle = await fileSystem.open(file, 'a+', 0o600);
    try {
      const { size, mode } = await handle.stat();
      if ((mode & 0o077) !== 0) await handle.chmod(0o600);
      // A line cut short by a crash (never acknowledged) stays, but on a line of its own.
      let data = line;
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) data = Buffer.concat([Buffer.from('\n'), line]);
      }
      try {
        let written = 0;
        while (written < data.length) {
          const { bytesWritten } = await handle.write(data, written, data.length - written);
          if (bytesWritten <= 0) throw Object.assign(new Error(`short write to ${file}`), { code: 'EIO' });
          written += bytesWritten;
        }
        await handle.sync();
      } catch (error) {
        await handle.truncate(size).then(() => handle.sync()).catch(() => undefined);
        throw error;
      }
    } finally {
      await handle.close();
    }
  }

  return {
    file,
    append(record) {
      const line = Buffer.from(`${JSON.stringify(record)}\n`);
      return withFileLock(file, () => write(line));
    },
  };
}

/** The lines of a JSON-lines file as bytes, without their newlines (none when the file is missing). */
export async function readJsonLines(file: string): Promise<Buffer[]> {
  const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  });
  const lines: Buffer[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    lines.push(bytes.subarray(start, end === -1 ? bytes.length : end));
    if (end === -1) break;
    start = end + 1;
  }
  return lines;
}

/** What `rewriteJsonLines`' edit decides: the lines to keep (undefined: leave the file as it is) and what to report. */
export interface LinesEdit<Result> {
  lines: readonly Buffer[] | undefined;
  result: Result;
}

/**
 * Rewrites a JSON-lines file under its lock: `edit` gets its current lines and returns the lines
 * it should hold. The new file is written beside it (mode 0600), flushed, renamed over it and the
 * folder flushed, so a crash leaves the old or the new file, never a mix. A missing file has no
 * lines.
 */
export function rewriteJsonLines<Result>(file: string, edit: (lines: Buffer[]) => LinesEdit<Result>): Promise<Result> {
  return withFileLock(file, async () => {
    const current = await readJsonLines(file);
    const { lines, result } = edit(current);
    if (lines === undefined) return result;
    const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(Buffer.concat(lines.flatMap((line) => [line, newline])));
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(temp, { force: true });
      throw error;
    }
    await handle.close();
    await rename(temp, file);
    const folder = await open(dirname(file), 'r').catch(() => undefined);
    await folder?.sync().catch(() => undefined);
    await folder?.close();
    return result;
  });
}

const newline = Buffer.from('\n');
