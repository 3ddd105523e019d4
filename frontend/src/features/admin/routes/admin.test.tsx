import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildBlogPost } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

function seedPosts(count: number) {
  db.blogPosts = Array.from({ length: count }, (_, i) =>
    buildBlogPost({
      id: i + 1,
      slug: `post-${i + 1}`,
      title: `Post ${i + 1}`,
      // Post 1 is the newest.
      createdAt: `2025-01-${String(28 - i).padStart(2, '0')}T12:00:00Z`,
      published: i % 2 === 1,
      views: i * 10,
    }),
  );
}

describe('admin area', () => {
  it('tells a non-admin they have no access, without calling the admin API', async () => {
    signInAs({ role: 'user' });
    const requests: string[] = [];
    server.events.on('request:start', ({ request }) => {
      requests.push(new URL(request.url).pathname);
    });
    renderApp('/admin');
    expect(await screen.findByText('You do not have access to the admin area.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(requests.filter((path) => path.startsWith('/api/admin'))).toEqual([]);
    server.events.removeAllListeners();
  });

  it('shows the no-access message when the server refuses the admin role', async () => {
    signInAs({ role: 'admin' });
    server.use(
      http.get('/api/admin/blog-stats', () => HttpResponse.json({ error: 'forbidden', message: 'No.' }, { status: 403 })),
    );
    renderApp('/admin');
    expect(await screen.findByText('You do not have access to the admin area.')).toBeInTheDocument();
  });

  it('shows the stats and pages the posts 5 at a time', async () => {
    signInAs({ role: 'admin' });
    seedPosts(7);
    db.content.keywords.set('vendor onboarding', {
      keyword: 'vendor onboarding',
      searchVolume: '',
      difficulty: '',
      priority: 'medium',
      category: 'Vendor Management',
    });
    db.content.keywords.set('w-9 forms', {
      keyword: 'W-9 forms',
      searchVolume: '',
      difficulty: '',
      priority: 'high',
      category: 'Tax',
    });
    db.content.generationsThisMonth = 3;
    db.content.generationCostThisMonth = 0.43;
    const { user } = renderApp('/admin');
    const list = await screen.findByRole('list', { name: 'Blog posts' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(5);
    expect(within(list).getByText('Post 1')).toBeInTheDocument();
    expect(screen.getByText('Showing 1 to 5 of 7 entries')).toBeInTheDocument();
    const cards = screen.getAllByTestId('stat-card');
    await waitFor(() =>
      expect(cards.map((card) => card.textContent)).toEqual([
        'Keywords2',
        'Total Posts7',
        'Published3',
        'Drafts4',
        'Total Views210',
        'Generations this month3$0.43 spent this month',
        'Certificates read this month12$0.05 spent this month',
      ]),
    );
    expect(screen.getByRole('link', { name: 'New Post' })).toHaveAttribute('href', '/admin/blog/new');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Showing 6 to 7 of 7 entries')).toBeInTheDocument();
    const page2 = screen.getByRole('list', { name: 'Blog posts' });
    expect(within(page2).getAllByRole('listitem')).toHaveLength(2);
    expect(within(page2).getByText('Post 7')).toBeInTheDocument();
  });

  it('offers Publish for drafts only, and Edit by slug', async () => {
    signInAs({ role: 'admin' });
    seedPosts(2);
    renderApp('/admin');
    const draft = await screen.findByRole('listitem', { name: 'Post 1' });
    const published = screen.getByRole('listitem', { name: 'Post 2' });
    expect(within(draft).getByText('Draft')).toBeInTheDocument();
    expect(within(draft).getByRole('button', { name: 'Publish' })).toBeInTheDocument();
    expect(within(published).queryByRole('button', { name: 'Publish' })).not.toBeInTheDocument();
    expect(within(published).getByText('Published')).toBeInTheDocument();
    expect(within(draft).getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/admin/blog/edit/post-1');
  });

  it('publishes a draft with a success toast', async () => {
    signInAs({ role: 'admin' });
    seedPosts(1);
    const { user } = renderApp('/admin');
    const row = await screen.findByRole('listitem', { name: 'Post 1' });
    await user.click(within(row).getByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Blog post published');
    await waitFor(() => expect(within(row).queryByRole('button', { name: 'Publish' })).not.toBeInTheDocument());
    expect(db.blogPosts[0]).toMatchObject({ status: 'published', published: true });
  });

  it("says 'Failed to publish blog post' when publishing fails", async () => {
    signInAs({ role: 'admin' });
    seedPosts(1);
    server.use(
      http.put('/api/admin/blog-posts/{id}', () => HttpResponse.json({ error: 'internal', message: 'Boom.' }, { status: 500 })),
    );
    const { user } = renderApp('/admin');
    const row = await screen.findByRole('listitem', { name: 'Post 1' });
    await user.click(within(row).getByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Failed to publish blog post');
    expect(db.blogPosts[0].status).toBe('draft');
  });

  it('deletes a post after confirmation with a success toast', async () => {
    signInAs({ role: 'admin' });
    seedPosts(2);
    const { user } = renderApp('/admin');
    const row = await screen.findByRole('listitem', { name: 'Post 1' });
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Blog post deleted');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Post 1' })).not.toBeInTheDocument());
    expect(db.blogPosts.map((p) => p.id)).toEqual([2]);
  });

  it("says 'Failed to delete blog post' when deleting fails", async () => {
    signInAs({ role: 'admin' });
    seedPosts(1);
    server.use(
      http.delete('/api/admin/blog-posts/{id}', () =>
        HttpResponse.json({ error: 'internal', message: 'Boom.' }, { status: 500 }),
      ),
    );
    const { user } = renderApp('/admin');
    const row = await screen.findByRole('listitem', { name: 'Post 1' });
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Failed to delete blog post');
    expect(db.blogPosts).toHaveLength(1);
  });
});
