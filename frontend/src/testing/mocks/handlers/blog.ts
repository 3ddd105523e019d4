import { HttpResponse, type JsonBodyType } from 'msw';
import { http } from '@/testing/mocks/http';
import type { BlogPost, BlogPostInput, PublicBlogPostSummary } from '@/types/api';
import { accountFromRequest, db } from '../db';
import { apiError, unauthorized } from '../utils';

/** The server's answer to a call on an admin route: null when the caller is an admin. */
export function refuseNonAdmin(request: Request) {
  const account = accountFromRequest(request);
  if (!account) return unauthorized();
  if (account.role !== 'admin') return apiError(403, 'forbidden', 'You do not have access to this page.');
  return null;
}

const notFound = () => apiError(404, 'not_found', 'Blog post not found.');

function escapeHtml(text: string) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A small stand-in for the server's Markdown rendering: headings, bold and paragraphs, escaped. */
export function renderMarkdown(markdown: string): string {
  return markdown
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => {
      const html = escapeHtml(block).replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>');
      const heading = /^(#{1,6})\s+(.*)$/.exec(html);
      return heading ? `<h${heading[1].length}>${heading[2]}</h${heading[1].length}>` : `<p>${html}</p>`;
    })
    .join('\n');
}

function newestFirst(a: BlogPost, b: BlogPost) {
  return b.createdAt.localeCompare(a.createdAt);
}

function pageOf<T extends JsonBodyType>(items: T[], url: URL) {
  const limit = Number(url.searchParams.get('limit') ?? items.length) || items.length;
  const offset = Number(url.searchParams.get('offset') ?? 0) || 0;
  return HttpResponse.json<T[]>(items.slice(offset, offset + limit), { headers: { 'X-Total-Count': String(items.length) } });
}

function findPost(idOrSlug: string) {
  return db.blogPosts.find((p) => String(p.id) === idOrSlug || p.slug === idOrSlug);
}

function slugify(title: string) {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function summary(post: BlogPost): PublicBlogPostSummary {
  const {
    id,
    slug,
    title,
    excerpt,
    author,
    tags,
    readTime,
    createdAt,
    updatedAt,
    publishedAt,
    views,
    metaTitle,
    metaDescription,
  } = post;
  return {
    id,
    slug,
    title,
    excerpt,
    author,
    tags,
    readTime,
    createdAt,
    updatedAt,
    publishedAt,
    views,
    metaTitle,
    metaDescription,
  };
}

function validate(input: Partial<BlogPostInput>) {
  const errors: Record<string, string[]> = {};
  if (!input.title?.trim()) errors.title = ['Title is required'];
  if (!input.content?.trim()) errors.content = ['Content is required'];
  return Object.keys(errors).length ? apiError(422, 'validation_failed', 'Some fields are invalid.', errors) : null;
}

function applyInput(post: BlogPost, input: Partial<BlogPostInput>, now: string): BlogPost {
  const published = input.published ?? post.published;
  const slug = input.slug?.trim() || post.slug || slugify(input.title ?? post.title);
  if (slug !== post.slug && post.slug) db.oldSlugs.set(post.slug, post.id);
  return {
    ...post,
    title: input.title ?? post.title,
    content: input.content ?? post.content,
    excerpt: input.excerpt ?? post.excerpt,
    tags: input.tags ?? post.tags,
    metaTitle: input.metaTitle === undefined ? post.metaTitle : input.metaTitle,
    metaDescription: input.metaDescription === undefined ? post.metaDescription : input.metaDescription,
    slug,
    published,
    status: published ? 'published' : 'draft',
    publishedAt: published ? (post.publishedAt ?? now) : null,
    updatedAt: now,
  };
}

export const blogHandlers = [
  http.get('/api/admin/blog-stats', ({ request }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    const published = db.blogPosts.filter((p) => p.published).length;
    return HttpResponse.json({
      posts: db.blogPosts.length,
      published,
      drafts: db.blogPosts.length - published,
      views: db.blogPosts.reduce((sum, p) => sum + p.views, 0),
    });
  }),
  http.post('/api/admin/blog-posts/preview', async ({ request }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    const body = (await request.json()) as { content?: string };
    return HttpResponse.json({ html: renderMarkdown(body.content ?? '') });
  }),
  http.get('/api/admin/blog-posts', ({ request }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    return pageOf([...db.blogPosts].sort(newestFirst), new URL(request.url));
  }),
  http.get('/api/admin/blog-posts/{id}', ({ request, params }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    const post = findPost(String(params.id));
    return post ? HttpResponse.json(post) : notFound();
  }),
  http.post('/api/admin/blog-posts', async ({ request }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    const input = (await request.json()) as BlogPostInput;
    const invalid = validate(input);
    if (invalid) return invalid;
    const now = new Date().toISOString();
    const id = Math.max(0, ...db.blogPosts.map((p) => p.id)) + 1;
    const blank: BlogPost = {
      id,
      slug: '',
      title: '',
      excerpt: '',
      content: '',
      author: 'Vendorwatch',
      tags: [],
      status: 'draft',
      published: false,
      readTime: 1,
      views: 0,
      metaTitle: null,
      metaDescription: null,
      createdAt: now,
      updatedAt: now,
      publishedAt: null,
    };
    const post = applyInput(blank, input, now);
    db.blogPosts.push(post);
    return HttpResponse.json(post, { status: 201 });
  }),
  http.put('/api/admin/blog-posts/{id}', async ({ request, params }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    const post = db.blogPosts.find((p) => String(p.id) === params.id);
    if (!post) return notFound();
    const body = (await request.json()) as Partial<BlogPostInput> & { status?: string };
    const now = new Date().toISOString();
    let next: BlogPost;
    if (body.status === 'published' && body.title === undefined) {
      next = applyInput(post, { published: true }, now);
    } else {
      const invalid = validate(body);
      if (invalid) return invalid;
      next = applyInput(post, body, now);
    }
    db.blogPosts = db.blogPosts.map((p) => (p.id === post.id ? next : p));
    return HttpResponse.json(next);
  }),
  http.delete('/api/admin/blog-posts/{id}', ({ request, params }) => {
    const refusal = refuseNonAdmin(request);
    if (refusal) return refusal;
    if (!db.blogPosts.some((p) => String(p.id) === params.id)) return notFound();
    db.blogPosts = db.blogPosts.filter((p) => String(p.id) !== params.id);
    return new HttpResponse(null, { status: 204 });
  }),
  http.get('/api/blog-posts', ({ request }) => {
    const published = db.blogPosts
      .filter((p) => p.published)
      .sort(newestFirst)
      .map(summary);
    return pageOf(published, new URL(request.url));
  }),
  http.get('/api/blog-posts/{slug}', ({ params }) => {
    const slug = String(params.slug);
    const id = db.oldSlugs.get(slug);
    const post = db.blogPosts.find((p) => p.published && (p.slug === slug || p.id === id));
    if (!post) return notFound();
    return HttpResponse.json({ ...summary(post), content: post.content, html: renderMarkdown(post.content) });
  }),
];
