/**
 * `site check --external`: the web addresses the posts and the page copy link to, each asked once
 * (HEAD, then GET when the server refuses HEAD), a few at a time and each within a timeout, with
 * the answers kept for a day in the build cache (`external-links` under cacheRoot()), so a second
 * check the same day asks nobody. An address that answers 400 or more, or not at all, is a
 * `LINK_EXTERNAL` warning at each place it is written: another site being down must not fail a
 * check, and this never runs in `site build`.
 */
import { hashParts, openDiskCache, type DiskCache } from '../cache/disk-cache.js';
import { SiteError } from '../errors.js';
import type { PlacedLink } from './links-stage.js';

/** Options of `checkExternalLinks`. */
export interface ExternalCheckOptions {
  /** Requests at once (default 8). */
  concurrency?: number;
  /** Milliseconds an address may take to answer (default 10,000). */
  timeoutMs?: number;
  /** The cache of answers (default the `external-links` namespace of the build cache); false for none. */
  cache?: DiskCache | false;
  /** The clock (tests move it a day on). */
  now?: () => number;
}

/** How an address answered: its status, or why it did not (status 0). */
interface Answer {
  status: number;
  error?: string;
  checkedAt: number;
}

/** Answers are kept this long. */
const dayMs = 24 * 60 * 60 * 1000;

/** What `checkExternalLinks` found: the warnings, and how many addresses were asked and how many the cache answered. */
export interface ExternalCheck {
  warnings: SiteError[];
  asked: number;
  cached: number;
}

/** Checks the web links; never throws for an address that fails. */
export async function checkExternalLinks(
  links: readonly PlacedLink[],
  options: ExternalCheckOptions = {},
): Promise<ExternalCheck> {
  const cache = options.cache === false ? undefined : (options.cache ?? openDiskCache('external-links'));
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 10_000;
  // The fragment is the browser's business; the server sees the rest.
  const addresses = [...new Set(links.map((link) => withoutFragment(link.href)))].sort();
  const answers = new Map<string, Answer>();
  const toAsk: string[] = [];
  for (const address of addresses) {
    const kept = readAnswer(cache, address);
    if (kept && now() - kept.checkedAt < dayMs) answers.set(address, kept);
    else toAsk.push(address);
  }
  const cached = answers.size;
  let next = 0;
  const worker = async () => {
    while (next < toAsk.length) {
      const address = toAsk[next++]!;
      const answer = { ...(await ask(address, timeoutMs)), checkedAt: now() };
      answers.set(address, answer);
      if (cache) await cache.write(hashParts('external-link', address), JSON.stringify(answer));
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, toAsk.length) }, worker));
  const warnings: SiteError[] = [];
  for (const link of links) {
    const answer = answers.get(withoutFragment(link.href))!;
    if (answer.status > 0 && answer.status < 400) continue;
    const message = answer.status ? `${link.href} answered ${answer.status}` : `${link.href} ${answer.error}`;
    warnings.push(
      new SiteError({
        code: 'LINK_EXTERNAL',
        severity: 'warning',
        message,
        file: link.file,
        line: link.line,
        column: link.column,
        field: link.field,
      }),
    );
  }
  return { warnings, asked: toAsk.length, cached };
}

function withoutFragment(href: string): string {
  const hash = href.indexOf('#');
  return hash === -1 ? href : href.slice(0, hash);
}

function readAnswer(cache: DiskCache | undefined, address: string): Answer | undefined {
  const data = cache?.readSync(hashParts('external-link', address));
  if (!data) return undefined;
  try {
    const answer = JSON.parse(data.toString('utf8')) as Answer;
    return typeof answer.status === 'number' && typeof answer.checkedAt === 'number' ? answer : undefined;
  } catch {
    return undefined;
  }
}

/** HEAD, and GET when the server does not allow HEAD (405, 501); redirects are followed. */
async function ask(address: string, timeoutMs: number): Promise<Omit<Answer, 'checkedAt'>> {
  try {
    const head = await request(address, 'HEAD', timeoutMs);
    if (head !== 405 && head !== 501) return { status: head };
    return { status: await request(address, 'GET', timeoutMs) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
      return { status: 0, error: `did not answer within ${timeoutMs / 1000} s` };
    return {
      status: 0,
      error: `could not be reached (${cause ?? (error instanceof Error ? error.message : String(error))})`,
    };
  }
}

async function request(address: string, method: 'HEAD' | 'GET', timeoutMs: number): Promise<number> {
  const response = await fetch(address, {
    method,
    redirect: 'follow',
    signal: AbortSignal.timeout(timeoutMs),
    headers: { 'user-agent': 'typed-site link check' },
  });
  // Only the status matters: the body of a GET is not read.
  await response.body?.cancel();
  return response.status;
}
