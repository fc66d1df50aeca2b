/**
 * The inputs each page's render read (indexes into the render state's keys), kept packed. On the
 * real site with 1,000 posts in two languages, each of its 9,000 post pages read about 2,000
 * inputs (every post's date and category, which picked the two posts its end block lists, until
 * that list stopped at its second post): 18 million indexes, which stored as arrays took 130 MB and 0.86 s to read back, for a build that
 * then needs none of them when nothing changed. Packed, the pages' sorted reads are stored in
 * order, each as what it adds to and removes from the page before it's (neighbouring pages, such
 * as two posts of one section, read nearly the same inputs), in one Uint32Array: it is read back
 * as one block of bytes, and unpacked only when a page's reads are asked for.
 *
 * A build that rendered a few pages patches the packed form instead of packing every page again
 * (`patchReads`): the chain of differences stays as it was stored, and each rendered page's reads
 * are kept beside it whole (the next page's difference still builds on the chain's record); a
 * page gone is only named. Once the patched and gone pages are a quarter of the chain, the next
 * build packs them all again.
 */

/** The reads of the pages of a build. */
export interface PageReads {
  readonly size: number;
  has(file: string): boolean;
  /** Every page with its reads, in the stored order (the packed form gives them sorted, each array new). */
  entries(): Iterable<[string, readonly number[]]>;
  /** The pages that read any of `indexes`. */
  reading(indexes: ReadonlySet<number>): Set<string>;
  /** Every page, in the stored order. */
  files(): Iterable<string>;
  /** The packed form as it is to be stored, when it is known without packing every page (read back, or patched). */
  readonly packed?: PackedReads;
}

/** The packed form, as stored. */
export interface PackedReads {
  /** The pages of the chain, in order. */
  files: string[];
  /** Per page: the count added, the count removed, then the indexes added and those removed (each sorted). */
  deltas: Uint32Array;
  /**
   * Pages whose reads are not their record in the chain (rendered since it was packed), or not in
   * it (new): each page's count of reads, and its sorted reads one page after another.
   */
  patched?: { files: string[]; counts: Uint32Array; reads: Uint32Array };
  /** Pages of the chain that are gone; their records still carry the difference the next page builds on. */
  gone?: string[];
}

/** The reads of a map (the pages just rendered). */
export function pageReadsOf(map: ReadonlyMap<string, readonly number[]>): PageReads {
  return {
    size: map.size,
    has: (file) => map.has(file),
    entries: () => map.entries(),
    files: () => map.keys(),
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
export function unpackReads(packed: PackedReads): PageReads {
  const { files, deltas } = packed;
  const gone = new Set(packed.gone);
  const own = new Map<string, Uint32Array>();
  if (packed.patched) {
    let at = 0;
    packed.patched.files.forEach((file, index) => {
      const count = packed.patched!.counts[index]!;
      own.set(file, packed.patched!.reads.subarray(at, at + count));
      at += count;
    });
  }
  const chained = new Set(files);
  const added = [...own.keys()].filter((file) => !chained.has(file));
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
  /** What a page of the chain itself reads: its own reads when it has them, else the chain's; nothing when it is gone. */
  const shown = (file: string) => !gone.has(file) && !own.has(file);
  return {
    size: files.length - [...gone].filter((file) => !own.has(file)).length + added.length,
    has: (file) => ((index ??= new Set(files)).has(file) ? !gone.has(file) || own.has(file) : own.has(file)),
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
        if (own.has(file)) yield [file, Array.from(own.get(file)!)];
        else if (!gone.has(file)) yield [file, next];
      }
      for (const file of added) yield [file, Array.from(own.get(file)!)];
    },
    reading(indexes) {
      const found = new Set<string>();
      if (indexes.size === 0) return found;
      // How many of `indexes` the current page reads, carried from page to page.
      let count = 0;
      for (const [file, added, removed] of changes()) {
        for (const read of added) if (indexes.has(read)) count++;
        for (const read of removed) if (indexes.has(read)) count--;
        if (count > 0 && shown(file)) found.add(file);
      }
      for (const [file, reads] of own) if (reads.some((read) => indexes.has(read))) found.add(file);
      return found;
    },
    *files() {
      for (const file of files) if (!gone.has(file) || own.has(file)) yield file;
      yield* added;
    },
    packed,
  };
}

/**
 * `earlier` (read back packed) with the reads of `rendered` in place of theirs (or added) and the
 * pages of `gone` left out, without packing the others again; undefined when `earlier` was not read
 * back packed, or the patched and gone pages would be a quarter of the chain or more (then the
 * caller packs them all).
 */
export function patchReads(
  earlier: PageReads,
  rendered: ReadonlyMap<string, readonly number[]>,
  gone: readonly string[],
): PageReads | undefined {
  const base = earlier.packed;
  if (!base) return undefined;
  const own = new Map<string, Uint32Array>();
  if (base.patched) {
    let at = 0;
    base.patched.files.forEach((file, index) => {
      const count = base.patched!.counts[index]!;
      own.set(file, base.patched!.reads.subarray(at, at + count));
      at += count;
    });
  }
  for (const file of gone) own.delete(file);
  for (const [file, reads] of rendered) own.set(file, uniqueSorted(reads));
  const chained = new Set(base.files);
  const goneNow = new Set(base.gone);
  for (const file of gone) if (chained.has(file)) goneNow.add(file);
  // A gone page rendered again (back in the site) is patched, and no longer gone.
  for (const file of rendered.keys()) goneNow.delete(file);
  if ((own.size + goneNow.size) * 4 >= base.files.length) return undefined;
  const files = [...own.keys()];
  const counts = Uint32Array.from(files, (file) => own.get(file)!.length);
  const reads = new Uint32Array(counts.reduce((sum, count) => sum + count, 0));
  let at = 0;
  for (const file of files) {
    reads.set(own.get(file)!, at);
    at += own.get(file)!.length;
  }
  return unpackReads({
    files: base.files,
    deltas: base.deltas,
    ...(files.length ? { patched: { files, counts, reads } } : {}),
    ...(goneNow.size ? { gone: [...goneNow] } : {}),
  });
}
