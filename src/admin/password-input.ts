/**
 * Reads a new password for `site admin`: from a prompt with echo off when standard input is a
 * terminal (asked twice), else the first line of standard input (`echo … | site admin add-user`).
 * Never from argv or the environment, where other users and shell histories could read it.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** The shortest password accepted. */
export const minPasswordLength = 12;

/** Reads all of a piped stream and returns its first line. */
async function readFirstLine(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/, 1)[0] ?? '';
}

/** Asks for a line on the terminal without echoing what is typed. */
function ask(question: string, input: Readable, output: Writable): Promise<string> {
  return new Promise((resolve, reject) => {
    let muted = false;
    const echo = Object.assign(Object.create(output) as Writable, {
      write(chunk: string | Uint8Array, ...rest: unknown[]) {
        if (!muted) return (output.write as (...args: unknown[]) => boolean)(chunk, ...rest);
        return true;
      },
    });
    const lines = createInterface({ input, output: echo, terminal: true });
    lines.question(question, (answer) => {
      lines.close();
      output.write('\n');
      resolve(answer);
    });
    lines.on('SIGINT', () => {
      lines.close();
      reject(new Error('cancelled'));
    });
    muted = true;
  });
}

/** Reads a new password; throws a message when it is too short or the two entries differ. */
export async function readNewPassword(
  input: Readable & { isTTY?: boolean } = process.stdin,
  output: Writable = process.stderr,
): Promise<string> {
  let password: string;
  if (input.isTTY) {
    password = await ask('Password: ', input, output);
    const again = await ask('Password again: ', input, output);
    if (again !== password) throw new Error('the two passwords differ');
  } else {
    password = await readFirstLine(input);
  }
  if ([...password].length < minPasswordLength)
    throw new Error(`the password is shorter than ${minPasswordLength} characters`);
  return password;
}
