/** Reads the built site: every HTML page and its URL. */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** Every file under `dir`, relative, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else out.push(relative(dir, path).split(sep).join('/'));
    }
  };
  await walk(dir);
  return out.sort();
}

/** The URL a static host serves a file at: "no/hub/index.html" → "/no/hub/". */
export function urlOfFile(file: string): string {
  const path = file.endsWith('index.html') ? file.slice(0, -'index.html'.length) : file;
  return encodeURI(`/${path}`);
}

/** Every HTML page of a built site with its URL and text. */
export async function readPages(dir: string): Promise<{ file: string; url: string; html: string }[]> {
  const files = (await listFiles(dir)).filter((file) => file.endsWith('.html'));
  return Promise.all(
    files.map(async (file) => ({ file, url: urlOfFile(file), html: await readFile(join(dir, file), 'utf8') })),
  );
}
