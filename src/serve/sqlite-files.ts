/**
 * SQLite files, known by their bytes rather than their names: a database (its 16-byte header
 * "SQLite format 3\0"), a write-ahead log (magic 0x377f0682 or 0x377f0683) or a rollback journal
 * (magic d9d505f920a163d7). Each holds rows of the store, accounts' e-mails and password hashes
 * among them, so `site serve` never hands one out, whatever it is called and however deep it sits
 * (a backup put in the wrong folder, a copy of the data folder), and says so at start.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isHiddenPath } from '../file-paths.js';

const databaseHeader = Buffer.from('SQLite format 3\0', 'latin1');
const walMagics = [0x377f0682, 0x377f0683];
const journalMagic = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

/** What kind of SQLite file the first bytes of a file show, or undefined for any other file. */
export function sqliteKindOf(head: Uint8Array): 'database' | 'wal' | 'journal' | undefined {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes.length >= 16 && bytes.subarray(0, 16).equals(databaseHeader)) return 'database';
  if (bytes.length >= 4 && walMagics.includes(bytes.readUInt32BE(0))) return 'wal';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(journalMagic)) return 'journal';
  return undefined;
}

/**
 * Whether a file of `size` bytes may be a SQLite file worth reading the head of. A database is a
 * whole number of pages (a power of two from 512 to 65536 bytes); a log is a 32-byte header and
 * frames of a page and 24 bytes; a journal is padded to whole sectors (512 bytes or more). So the
 * pages and assets of a site are almost never opened twice, and the scan at start stays cheap.
 */
export function mayBeSqlite(size: number): boolean {
  if (size >= 512 && size % 512 === 0) return true;
  if (size <= 32) return false;
  for (let page = 512; page <= 65536; page *= 2) if ((size - 32) % (page + 24) === 0) return true;
  return false;
}

/** Whether the file at `path` (of `size` bytes) is a SQLite file; a file that cannot be read is not. */
export async function isSqliteFile(path: string, size: number): Promise<boolean> {
  if (!mayBeSqlite(size)) return false;
  let handle;
  try {
    handle = await open(path, 'r');
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, 16, 0);
    return sqliteKindOf(head.subarray(0, bytesRead)) !== undefined;
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}

/** The SQLite files in a folder to serve (relative paths, sorted), dot-files left out as they are never served. */
export async function findSqliteFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const name = relative(dir, path).split('\\').join('/');
    if (isHiddenPath(name)) continue;
    const info = await stat(path).catch(() => undefined);
    if (info && (await isSqliteFile(path, info.size))) found.push(name);
  }
  return found.sort();
}
