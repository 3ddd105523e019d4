import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Field, Input, Textarea } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';
import { META_DESCRIPTION_MAX, META_TITLE_MAX, SLUG_MAX_LENGTH } from '@/config';
import { ERROR_CODES, serverMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import type { BlogPost, BlogPostInput } from '@/types/api';
import { usePreviewBlogPost } from '../api/preview-blog-post';
import { useSaveBlogPost } from '../api/save-blog-post';
import { useUnsavedChangesGuard } from '../hooks/use-unsaved-changes-guard';
import { excerptFromContent, parseTags } from '../lib/markdown-format';
import { BlogPostPreview } from './blog-post-preview';
import { MarkdownEditor } from './markdown-editor';

export const REQUIRED_FIELDS_TEXT = 'Please fill in both title and content fields.';
export const SAVE_FAILED_TEXT = 'Failed to save blog post. Please try again.';

type FormValues = {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  tags: string;
  metaTitle: string;
  metaDescription: string;
  published: boolean;
};

function initialValues(post: BlogPost | undefined): FormValues {
  return {
    title: post?.title ?? '',
    slug: post?.slug ?? '',
    excerpt: post?.excerpt ?? '',
    content: post?.content ?? '',
    tags: post?.tags.join(', ') ?? '',
    metaTitle: post?.metaTitle ?? '',
    metaDescription: post?.metaDescription ?? '',
    published: post?.published ?? false,
  };
}

function sameValues(a: FormValues, b: FormValues): boolean {
  return (Object.keys(a) as (keyof FormValues)[]).every((key) => a[key] === b[key]);
}

function toInput(values: FormValues): BlogPostInput {
  const content = values.content.trim();
  return {
    title: values.title.trim(),
    content,
    excerpt: values.excerpt.trim() || excerptFromContent(content),
    tags: parseTags(values.tags),
    metaTitle: values.metaTitle.trim() || null,
    metaDescription: values.metaDescription.trim() || null,
    published: values.published,
    ...(values.slug.trim() ? { slug: values.slug.trim() } : {}),
  };
}

function Counter({ length, max }: { length: number; max: number }) {
  return (
    <span className={cn('tabular-nums', length > max ? 'font-medium text-red-600' : 'text-slate-500')}>
      {length}/{max}
    </span>
  );
}

/** The blog editor: a new post without `post`, the post's fields otherwise. */
export function BlogPostForm({ post }: { post?: BlogPost }) {
  const navigate = useNavigate();
  const save = useSaveBlogPost();
  const preview = usePreviewBlogPost();
  const [initial] = useState(() => initialValues(post));
  const [values, setValues] = useState(initial);
  const [missing, setMissing] = useState(false);
  const [tab, setTab] = useState(0);
  const dirty = !sameValues(values, initial);
  const guard = useUnsavedChangesGuard(dirty && !save.isPending);
  const contentId = useId();
  const contentErrorId = useId();

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));
  const fieldError = (field: string) =>
    save.error?.code === ERROR_CODES.validationFailed ? save.error.fieldError(field) : undefined;

  function showTab(index: number) {
    setTab(index);
    if (index === 1 && values.content.trim()) preview.mutate(values.content);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!values.title.trim() || !values.content.trim()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    save.mutate(
      { id: post?.id, input: toInput(values) },
      {
        onSuccess: (saved) => {
          toast({ title: 'Blog post saved', description: `"${saved.title}" has been saved.`, variant: 'success' });
          guard.allowNextNavigation();
          void navigate('/admin');
        },
        onError: (error) => toast({ title: SAVE_FAILED_TEXT, description: serverMessage(error), variant: 'error' }),
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      <Card className="space-y-5 p-5">
        <Field label="Title" error={fieldError('title')}>
          <Input value={values.title} onChange={(e) => set('title', e.target.value)} invalid={Boolean(fieldError('title'))} />
        </Field>
        <Field label="Excerpt" hint="Left empty, it is the first 200 characters of the content." error={fieldError('excerpt')}>
          <Textarea value={values.excerpt} onChange={(e) => set('excerpt', e.target.value)} rows={3} />
        </Field>
        <div className="space-y-1.5">
          <label htmlFor={contentId} className="block text-sm font-medium text-slate-700">
            Content
          </label>
          <TabGroup selectedIndex={tab} onChange={showTab}>
            <TabList className="mb-2 inline-flex rounded-lg border border-slate-300 bg-white p-0.5 shadow-sm">
              {['Write', 'Preview'].map((name) => (
                <Tab
                  key={name}
                  className="rounded-md px-3 py-1 text-sm font-medium text-slate-600 data-[focus]:outline-2 data-[focus]:outline-blue-600 data-[selected]:bg-slate-900 data-[selected]:text-white"
                >
                  {name}
                </Tab>
              ))}
            </TabList>
            <TabPanels>
              <TabPanel unmount={false}>
                <MarkdownEditor
                  id={contentId}
                  value={values.content}
                  onChange={(content) => set('content', content)}
                  invalid={Boolean(fieldError('content'))}
                  describedBy={fieldError('content') ? contentErrorId : undefined}
                />
                <p className="mt-1.5 text-xs text-slate-500">Markdown. Ctrl+B (Cmd+B) for bold, Ctrl+K (Cmd+K) for a link.</p>
              </TabPanel>
              <TabPanel className="min-h-72 rounded-lg border border-slate-200 bg-white">
                <BlogPostPreview
                  html={preview.data?.html}
                  pending={preview.isPending}
                  error={preview.error}
                  empty={!values.content.trim()}
                />
              </TabPanel>
            </TabPanels>
          </TabGroup>
          {fieldError('content') ? (
            <p id={contentErrorId} role="alert" className="text-sm text-red-600">
              {fieldError('content')}
            </p>
          ) : null}
        </div>
        <Field label="Tags" hint="Comma separated, for example: compliance, insurance" error={fieldError('tags')}>
          <Input value={values.tags} onChange={(e) => set('tags', e.target.value)} />
        </Field>
      </Card>

      <Card className="space-y-5 p-5">
        <h2 className="text-base font-semibold text-slate-900">Search engines</h2>
        <Field
          label="Meta Title"
          hint={<Counter length={values.metaTitle.length} max={META_TITLE_MAX} />}
          error={fieldError('metaTitle')}
        >
          <Input value={values.metaTitle} onChange={(e) => set('metaTitle', e.target.value)} />
        </Field>
        <Field
          label="Meta Description"
          hint={<Counter length={values.metaDescription.length} max={META_DESCRIPTION_MAX} />}
          error={fieldError('metaDescription')}
        >
          <Textarea value={values.metaDescription} onChange={(e) => set('metaDescription', e.target.value)} rows={3} />
        </Field>
        <Field label="URL Slug" hint="Left empty, it is made from the title." error={fieldError('slug')}>
          <Input value={values.slug} maxLength={SLUG_MAX_LENGTH} onChange={(e) => set('slug', e.target.value)} />
        </Field>
      </Card>

      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
          <Checkbox checked={values.published} onChange={(e) => set('published', e.target.checked)} />
          Published
        </label>
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <ButtonLink to="/admin" variant="outline">
            Cancel
          </ButtonLink>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save'}
          </Button>
        </div>
      </div>
      {missing ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {REQUIRED_FIELDS_TEXT}
        </p>
      ) : null}
      {guard.dialog}
    </form>
  );
}
