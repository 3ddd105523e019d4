import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildBlogPost } from '@/testing/mocks/fixtures';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

function seedPublished(count: number) {
  db.blogPosts = Array.from({ length: count }, (_, i) =>
    buildBlogPost({
      id: i + 1,
      slug: `post-${i + 1}`,
      title: `Post ${i + 1}`,
      createdAt: `2025-02-${String(20 - i).padStart(2, '0')}T12:00:00Z`,
      publishedAt: `2025-02-${String(20 - i).padStart(2, '0')}T12:00:00Z`,
      published: true,
      readTime: 3 + i,
      tags: [`tag-${i + 1}`],
    }),
  );
}

describe('public blog list', () => {
  it('shows 6 published posts a page with excerpt, date, read time and tags', async () => {
    seedPublished(8);
    db.blogPosts.push(buildBlogPost({ title: 'Secret draft', published: false, createdAt: '2025-03-01T00:00:00Z' }));
    const { user } = renderApp('/blog');
    const list = await screen.findByRole('list', { name: 'Blog posts' });
    const items = within(list).getAllByRole('article');
    expect(items).toHaveLength(6);
    expect(screen.queryByText('Secret draft')).not.toBeInTheDocument();
    const first = items[0];
    expect(within(first).getByRole('link', { name: 'Post 1' })).toHaveAttribute('href', '/blog/post-1');
    expect(first).toHaveTextContent('A short summary of the post.');
    expect(first).toHaveTextContent('Feb 20, 2025');
    expect(first).toHaveTextContent('3 min read');
    expect(within(first).getByText('tag-1')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Blog posts' })).getAllByRole('article')).toHaveLength(2));
    expect(screen.getByText('Post 8')).toBeInTheDocument();
  });

  it('needs no login and offers Log In and Register', async () => {
    seedPublished(1);
    renderApp('/blog');
    expect(await screen.findByRole('link', { name: 'Post 1' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
  });
});

describe('public blog post', () => {
  it('renders the server HTML, tags and read time, with a register or log in call to action', async () => {
    seedPublished(1);
    renderApp('/blog/post-1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Post 1' })).toBeInTheDocument();
    const body = screen.getByTestId('blog-post-body');
    expect(within(body).getByRole('heading', { level: 2, name: 'Why it matters' })).toBeInTheDocument();
    expect(body.querySelector('strong')).toHaveTextContent('certificates');
    expect(within(screen.getByRole('list', { name: 'Tags' })).getByText('tag-1')).toBeInTheDocument();
    expect(screen.getByText('3 min read')).toBeInTheDocument();
    const cta = screen.getByRole('complementary', { name: 'Get started' });
    expect(within(cta).getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(within(cta).getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    expect(within(cta).queryByRole('link', { name: 'Go to Dashboard' })).not.toBeInTheDocument();
  });

  it('offers Go to Dashboard to a signed-in reader', async () => {
    signInAs();
    seedPublished(1);
    renderApp('/view-blog-post/post-1');
    await screen.findByRole('heading', { level: 1, name: 'Post 1' });
    const cta = screen.getByRole('complementary', { name: 'Get started' });
    expect(await within(cta).findByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(within(cta).queryByRole('link', { name: 'Register' })).not.toBeInTheDocument();
  });

  it("says 'Blog Post Not Found' for an unknown slug or a draft", async () => {
    db.blogPosts = [buildBlogPost({ slug: 'a-draft', published: false })];
    renderApp('/blog/a-draft');
    expect(await screen.findByRole('heading', { name: 'Blog Post Not Found' })).toBeInTheDocument();
  });

  it('moves an old slug to the current one', async () => {
    seedPublished(1);
    db.oldSlugs.set('old-name', 1);
    const { router } = renderApp('/blog/old-name');
    await waitFor(() => expect(router.state.location.pathname).toBe('/blog/post-1'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(await screen.findByRole('heading', { level: 1, name: 'Post 1' })).toBeInTheDocument();
  });
});
