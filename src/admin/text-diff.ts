/** The admin's diffs: what a save, a restore or a translation's source changed in a file. */
import { lazyPackage } from '../lazy-package.js';

const diff = lazyPackage<typeof import('diff')>('diff');

/**
 * A unified diff of a file's text before and after (`labels`: the headers' names of the two
 * sides; `context`: lines kept around each change), without the "Index:" and "===" lines.
 */
export function fileDiff(
  file: string,
  before: string,
  after: string,
  labels: [string, string] = ['', ''],
  context = 1,
): string {
  return diff()
    .createTwoFilesPatch(file, file, before, after, labels[0], labels[1], { context })
    .replace(/^(?:Index: .*\n)?=+\n/, '');
}
