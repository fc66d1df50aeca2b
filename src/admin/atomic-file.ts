/** Writing a file so that a crash leaves the old or the new bytes, never a mix. */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Writes a file atomically: a temp file in the same folder, fsync, rename (and the folder's entry fsync'd). */
export async function writeFileAtomic(file: string, text: string | Uint8Array, mode = 0o644): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${randomBytes(6).toString('hex')}.admin-tmp`);
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  // The umask may have narrowed the mode asked for at creation.
  await chmod(temp, mode);
  await rename(temp, file);
  const folder = await open(dirname(file), 'r').catch(() => undefined);
  await folder?.sync().catch(() => undefined);
  await folder?.close();
}

