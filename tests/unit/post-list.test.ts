/** The admin's post list query (?limit=&offset=&status=&locale=&category=&q=) and its filter, as the screen filters. */
import { describe, expect, it } from 'vitest';
import { pageOfPosts, postListQueryOf, type ListedPost } from '../../src/admin/post-list';

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
