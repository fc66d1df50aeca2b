// Runs one of the TypeScript scripts of this folder from its build in lib/scripts/, after bringing
// lib/ up to date with the one compile step (scripts/build-lib.js). Usage: node scripts/run.js bench [args]
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureLib, libDir, scriptNames } from './build-lib.js';

const [name, ...args] = process.argv.slice(2);
if (!scriptNames.includes(name)) {
  process.stderr.write(`usage: node scripts/run.js <${scriptNames.join('|')}> [args]\n`);
  process.exit(2);
}
await ensureLib();
const file = join(libDir, 'scripts', `${name}.js`);
process.argv = [process.argv[0], file, ...args];
await import(pathToFileURL(file).href);
