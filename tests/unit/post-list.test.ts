/** The admin's post list query (?limit=&offset=&status=&locale=&category=&q=) and its filter, as the screen filters; the cache of what the list read, and its watchers. */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createPostListCache,
  pageOfPosts,
  postListQueryOf,
  type ListedPost,
  type PostListCache,
} from '../../src/admin/post-list';

const post = (slug: string, en: Record<string, unknown>, no?: Record<string, unknown>): ListedPost => ({
  slug,
  translations: {
    en: { status: 'published', ...en },
    no: no ? { status: 'published', ...no } : { status: 'missing' },
  } as ListedPost['translations'],
});
const posts = [
  post('a-tailor', { title: 'A Tailor', category: 'repairers' }, { title: 'En skredder', status: 'scheduled' }),
  post('b-zip', { title: 'Zips', category: 'retail', status: 'draft' }),
  post('c-hem', { title: 'Hems and tailors', category: ['repairers', 'retail'] }, { title: 'Sømmer' }),
];

describe('postListQueryOf', () => {
  it('is undefined without any of its parameters: the whole list, as before', () => {
    expect(postListQueryOf(new URLSearchParams(''))).toBeUndefined();
    expect(postListQueryOf(new URLSearchParams('collection=blog'))).toBeUndefined();
  });
  it('reads a page (50 by default, at most 500; a bad number is the default) and the filters', () => {
    expect(postListQueryOf(new URLSearchParams('q=Tailor'))).toEqual({
      limit: 50,
      offset: 0,
      status: '',
      locale: '',
      category: '',
      search: 'tailor',
    });
    expect(postListQueryOf(new URLSearchParams('limit=9999&offset=-1'))).toMatchObject({ limit: 500, offset: 0 });
    expect(postListQueryOf(new URLSearchParams('limit=0'))).toMatchObject({ limit: 1 });
    expect(postListQueryOf(new URLSearchParams('limit=2.5&offset=x'))).toMatchObject({ limit: 50, offset: 0 });
  });
});

describe('pageOfPosts', () => {
  const page = (query: string) => pageOfPosts(posts, postListQueryOf(new URLSearchParams(query))!);
  it('slices the matches and counts them all', () => {
    expect(page('limit=2')).toEqual({ posts: posts.slice(0, 2), total: 3 });
    expect(page('limit=2&offset=2')).toEqual({ posts: posts.slice(2), total: 3 });
    expect(page('offset=9')).toEqual({ posts: [], total: 3 });
  });
  it('filters by status (in one locale when given), category (one of a list too) and text in the slug or a title', () => {
    expect(page('status=draft').posts.map((each) => each.slug)).toEqual(['b-zip']);
    expect(page('status=scheduled&locale=no').posts.map((each) => each.slug)).toEqual(['a-tailor']);
    expect(page('status=scheduled&locale=en').total).toBe(0);
    expect(page('status=missing').posts.map((each) => each.slug)).toEqual(['b-zip']);
    expect(page('category=retail').posts.map((each) => each.slug)).toEqual(['b-zip', 'c-hem']);
    expect(page('q=TAILOR').posts.map((each) => each.slug)).toEqual(['a-tailor', 'c-hem']);
    expect(page('q=sømmer').posts.map((each) => each.slug)).toEqual(['c-hem']);
  });
});

describe('createPostListCache', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'post-list-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const write = async (slug: string, title: string) => {
    await mkdir(join(root, slug), { recursive: true });
    await writeFile(join(root, slug, 'en.md'), `---\ntitle: ${title}\n---\nText.\n`);
  };
  const titleOf = async (cache: PostListCache, slug: string) =>
    (await cache.file(join(root, slug, 'en.md')))?.data.title;

  it('keeps what it read until the watcher of its post folder names a change, new and replaced folders included', async () => {
    await write('a-post', 'First');
    const cache = createPostListCache();
    await cache.watch(root);
    expect(await titleOf(cache, 'a-post')).toBe('First');
    expect(cache.changes(root)).toBe(0);
    await writeFile(join(root, 'a-post', 'en.md'), '---\ntitle: Second\n---\n');
    await expect.poll(() => titleOf(cache, 'a-post')).toBe('Second');
    // A folder made after the watch started is watched too.
    await write('b-post', 'New');
    await expect.poll(() => titleOf(cache, 'b-post')).toBe('New');
    // Its watcher names the change (what is kept of it is trusted, no file looked at).
    const before = cache.changes(root)!;
    await writeFile(join(root, 'b-post', 'en.md'), '---\ntitle: Newer\n---\n');
    await expect.poll(() => cache.changes(root)).toBeGreaterThan(before);
    await expect.poll(() => titleOf(cache, 'b-post')).toBe('Newer');
    // A folder moved in place of another (a rename's one step): the name's new folder is the one read.
    await write('c-post', 'Moved');
    await rm(join(root, 'a-post'), { recursive: true });
    await rename(join(root, 'c-post'), join(root, 'a-post'));
    await expect.poll(() => titleOf(cache, 'a-post')).toBe('Moved');
    await writeFile(join(root, 'a-post', 'en.md'), '---\ntitle: Moved and edited\n---\n');
    await expect.poll(() => titleOf(cache, 'a-post')).toBe('Moved and edited');
  });

  it('keeps no post read before a change the watcher named meanwhile', async () => {
    await write('a-post', 'First');
    const cache = createPostListCache();
    await cache.watch(root);
    const folder = join(root, 'a-post');
    const listed: ListedPost = { slug: 'a-post', translations: { en: { title: 'First', status: 'published' } } };
    const since = cache.changes(root)!;
    await writeFile(join(folder, 'en.md'), '---\ntitle: Second\n---\n');
    await expect.poll(() => cache.changes(root)).toBeGreaterThan(since);
    cache.keepPost(folder, ['key'], listed, since);
    expect(cache.keptPost(folder, ['key'])).toBeUndefined();
    cache.keepPost(folder, ['key'], listed, cache.changes(root)!);
    expect(cache.keptPost(folder, ['key'])).toBe(listed);
  });

  it('without a watch, looks at each file before using what it kept', async () => {
    await write('a-post', 'First');
    const cache = createPostListCache();
    expect(cache.changes(root)).toBeUndefined();
    expect(await titleOf(cache, 'a-post')).toBe('First');
    await writeFile(join(root, 'a-post', 'en.md'), '---\ntitle: Second, longer\n---\n');
    expect(await titleOf(cache, 'a-post')).toBe('Second, longer');
  });
});
