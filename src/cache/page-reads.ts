/**
 * The inputs each page's render read (indexes into the render state's keys), kept packed. On the
 * real site with 1,000 posts in two languages, each of its 9,000 post pages reads about 2,000
 * inputs (every post's date and category, which pick the two posts its end block lists): 18
 * million indexes, which stored as arrays took 130 MB and 0.86 s to read back, for a build that
 * then needs none of them when nothing changed. Packed, the pages' sorted reads are stored in
 * order, each as what it adds to and removes from the page before it's (neighbouring pages, such
 * as two posts of one section, read nearly the same inputs), in one Uint32Array: it is read back
 * as one block of bytes, and unpacked only when a page's reads are asked for.
 */

/** The reads of the pages of a build. */
export interface PageReads {
  readonly size: number;
  has(file: string): boolean;
  /** Every page with its reads, in the stored order (the packed form gives them sorted, each array new). */
  entries(): Iterable<[string, readonly number[]]>;
  /** The pages that read any of `indexes`. */
  reading(indexes: ReadonlySet<number>): Set<string>;
}

/** The packed form, as stored. */
export interface PackedReads {
  files: string[];
  /** Per page: the count added, the count removed, then the indexes added and those removed (each sorted). */
  deltas: Uint32Array;
}

/** The reads of a map (the pages just rendered). */
export function pageReadsOf(map: ReadonlyMap<string, readonly number[]>): PageReads {
  return {
    size: map.size,
    has: (file) => map.has(file),
    entries: () => map.entries(),
    reading(indexes) {
      const files = new Set<string>();
      if (indexes.size === 0) return files;
      for (const [file, reads] of map) if (reads.some((read) => indexes.has(read))) files.add(file);
      return files;
    },
  };
}

/** Packs the reads of every page: sorted, without repeats, each page as its difference from the one before. */
export function packReads(pages: PageReads): PackedReads {
  const files: string[] = [];
  const out: number[] = [];
  let previous: Uint32Array = new Uint32Array(0);
  for (const [file, reads] of pages.entries()) {
    const current = uniqueSorted(reads);
    const added: number[] = [];
    const removed: number[] = [];
    let i = 0;
    let j = 0;
    while (i < current.length || j < previous.length) {
      if (j >= previous.length || (i < current.length && current[i]! < previous[j]!)) added.push(current[i++]!);
      else if (i >= current.length || previous[j]! < current[i]!) removed.push(previous[j++]!);
      else {
        i++;
        j++;
      }
    }
    out.push(added.length, removed.length);
    for (const read of added) out.push(read);
    for (const read of removed) out.push(read);
    files.push(file);
    previous = current;
  }
  return { files, deltas: Uint32Array.from(out) };
}

function uniqueSorted(reads: readonly number[]): Uint32Array {
  const sorted = Uint32Array.from(reads).sort();
  let length = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[length++] = sorted[i]!;
  return sorted.subarray(0, length);
}

/** The reads of a packed form, unpacked page by page as they are asked for. */
export function unpackReads({ files, deltas }: PackedReads): PageReads {
  let index: Set<string> | undefined;
  /** Each page with the indexes it adds to the page before it's and those it removes, in order. */
  function* changes(): Generator<[string, Uint32Array, Uint32Array]> {
    let at = 0;
    for (const file of files) {
      const added = deltas.subarray(at + 2, at + 2 + deltas[at]!);
      const removed = deltas.subarray(at + 2 + added.length, at + 2 + added.length + deltas[at + 1]!);
      at += 2 + added.length + removed.length;
      yield [file, added, removed];
    }
  }
  return {
    size: files.length,
    has: (file) => (index ??= new Set(files)).has(file),
    *entries() {
      let current: number[] = [];
      for (const [file, added, removed] of changes()) {
        const next: number[] = [];
        let i = 0;
        let a = 0;
        let r = 0;
        while (i < current.length || a < added.length) {
          if (a >= added.length || (i < current.length && current[i]! < added[a]!)) {
            const read = current[i++]!;
            if (r < removed.length && removed[r] === read) r++;
            else next.push(read);
          } else next.push(added[a++]!);
        }
        current = next;
        yield [file, next];
      }
    },
    reading(indexes) {
      const found = new Set<string>();
      if (indexes.size === 0) return found;
      // How many of `indexes` the current page reads, carried from page to page.
      let count = 0;
      for (const [file, added, removed] of changes()) {
        for (const read of added) if (indexes.has(read)) count++;
        for (const read of removed) if (indexes.has(read)) count--;
        if (count > 0) found.add(file);
      }
      return found;
    },
  };
}
