import { HttpResponse } from 'msw';
import { http } from '@/testing/mocks/http';
import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { buildBlogPost } from '@/testing/mocks/fixtures';
import { server } from '@/testing/mocks/server';
import { fireEvent, renderApp, screen, signInAs, waitFor, within } from '@/testing/test-utils';

function trackPosts() {
  const calls: string[] = [];
  server.events.on('request:start', ({ request }) => {
    const path = new URL(request.url).pathname;
    if (request.method !== 'GET' && path.startsWith('/api/admin/blog-posts')) calls.push(`${request.method} ${path}`);
  });
  return calls;
}

describe('blog editor', () => {
  it('tells a non-admin they have no access', async () => {
    signInAs({ role: 'user' });
    renderApp('/admin/blog/new');
    expect(await screen.findByText('You do not have access to the admin area.')).toBeInTheDocument();
  });

  it('asks for title and content without sending a request', async () => {
    signInAs({ role: 'admin' });
    const calls = trackPosts();
    const { user } = renderApp('/admin/blog/new');
    await user.type(await screen.findByLabelText('Title'), 'Only a title');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please fill in both title and content fields.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Content'), '   ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Please fill in both title and content fields.')).toBeInTheDocument();
    expect(calls).toEqual([]);
    expect(db.blogPosts).toEqual([]);
    server.events.removeAllListeners();
  });

  it('creates a post with tags, meta fields and the excerpt fallback, then goes back to the admin area', async () => {
    signInAs({ role: 'admin' });
    const { user, router } = renderApp('/admin/blog/new');
    await user.type(await screen.findByLabelText('Title'), 'COI basics');
    await user.type(screen.getByLabelText('Content'), 'Certificates of insurance explained.');
    await user.type(screen.getByLabelText('Tags'), 'insurance, coi,');
    await user.type(screen.getByLabelText('Meta Title'), 'COI basics');
    expect(screen.getByText('10/60')).toBeInTheDocument();
    expect(screen.getByText('0/160')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Published' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Blog post saved');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(db.blogPosts[0]).toMatchObject({
      title: 'COI basics',
      content: 'Certificates of insurance explained.',
      excerpt: 'Certificates of insurance explained.',
      tags: ['insurance', 'coi'],
      metaTitle: 'COI basics',
      metaDescription: null,
      published: true,
    });
  });

  it("says 'Failed to save blog post. Please try again.' when saving fails, and stays", async () => {
    signInAs({ role: 'admin' });
    server.use(
      http.post('/api/admin/blog-posts', () => HttpResponse.json({ error: 'internal', message: 'Boom.' }, { status: 500 })),
    );
    const { user, router } = renderApp('/admin/blog/new');
    await user.type(await screen.findByLabelText('Title'), 'A title');
    await user.type(screen.getByLabelText('Content'), 'Some content');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Failed to save blog post. Please try again.');
    expect(router.state.location.pathname).toBe('/admin/blog/new');
  });

  it('edits an existing post by slug and can revert it to a draft', async () => {
    signInAs({ role: 'admin' });
    db.blogPosts = [buildBlogPost({ id: 1, slug: 'coi-basics', title: 'COI basics', published: true })];
    const calls = trackPosts();
    const { user, router } = renderApp('/admin/blog/edit/coi-basics');
    const title = await screen.findByLabelText('Title');
    expect(title).toHaveValue('COI basics');
    const checkbox = screen.getByRole('checkbox', { name: 'Published' });
    expect(checkbox).toBeChecked();
    await user.click(checkbox);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(calls).toEqual(['PUT /api/admin/blog-posts/1']);
    expect(db.blogPosts[0]).toMatchObject({ status: 'draft', published: false });
    server.events.removeAllListeners();
  });

  it('previews the content with the HTML the server renders', async () => {
    signInAs({ role: 'admin' });
    const { user } = renderApp('/admin/blog/new');
    await user.type(await screen.findByLabelText('Content'), '## Renewals{enter}{enter}Renew **early**.');
    await user.click(screen.getByRole('tab', { name: 'Preview' }));
    const preview = await screen.findByTestId('blog-preview');
    expect(within(preview).getByRole('heading', { level: 2, name: 'Renewals' })).toBeInTheDocument();
    expect(preview.querySelector('strong')).toHaveTextContent('early');
  });

  it('inserts Markdown from the toolbar and the keyboard', async () => {
    signInAs({ role: 'admin' });
    const { user } = renderApp('/admin/blog/new');
    const content = (await screen.findByLabelText('Content')) as HTMLTextAreaElement;
    await user.type(content, 'note');
    content.setSelectionRange(0, 4);
    await user.click(screen.getByRole('button', { name: 'Bold (Ctrl+B)' }));
    expect(content).toHaveValue('**note**');
    content.setSelectionRange(2, 6);
    fireEvent.keyDown(content, { key: 'k', ctrlKey: true });
    expect(content).toHaveValue('**[note](url)**');
    await user.click(screen.getByRole('button', { name: 'Bulleted list' }));
    expect(content).toHaveValue('- **[note](url)**');
  });

  it('asks before leaving with unsaved changes', async () => {
    signInAs({ role: 'admin' });
    const { user, router } = renderApp('/admin/blog/new');
    await user.type(await screen.findByLabelText('Title'), 'Half written');
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/admin/blog/new');
    expect(screen.getByLabelText('Title')).toHaveValue('Half written');

    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);

    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
  });

  it('leaves without asking when nothing changed', async () => {
    signInAs({ role: 'admin' });
    const { user, router } = renderApp('/admin/blog/new');
    await user.click(await screen.findByRole('link', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
