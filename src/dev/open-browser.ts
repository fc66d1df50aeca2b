/** Opens a URL in the user's default browser (`site dev --open`). */
import { spawn } from 'node:child_process';

/** The command that opens a URL on this platform. */
export function openCommand(url: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

/** Starts the browser without waiting for it; resolves false when the command cannot run. */
export function openBrowser(url: string): Promise<boolean> {
  const [command, args] = openCommand(url);
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', () => done(false));
    child.once('spawn', () => {
      child.unref();
      done(true);
    });
  });
}
