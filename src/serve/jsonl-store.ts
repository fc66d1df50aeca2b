/**
 * An append-only file of JSON lines (contact submissions, booking requests, the audit log). An
 * append resolves only once its whole line is written and flushed to disk; if any part fails (a
 * short write, a full disk), the file is cut back to its length before the append, so no torn
 * line is left for the next record to be glued onto, and the append rejects. Appends run one at a
 * time, so lines never interleave. The file and its folder are private to the server's user.
 */
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

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
  let queue: Promise<unknown> = Promise.resolve();

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
      const done = queue.then(() => write(line));
      queue = done.catch(() => undefined);
      return done;
    },
  };
}
