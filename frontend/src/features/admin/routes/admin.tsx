import { ArrowUpTrayIcon, PlusIcon, SparklesIcon } from '@heroicons/react/20/solid';
import { useState } from 'react';
import { PageHeader } from '@/components/layouts/page-header';
import { Button, ButtonLink } from '@/components/ui/button';
import { useBlogStats } from '../api/get-blog-stats';
import { useContentStats } from '../api/get-content-stats';
import { useKeywordCount } from '../api/get-keyword-count';
import { AdminAccessDenied, AdminOnly, isForbidden } from '../components/admin-only';
import { AdminStatsCards } from '../components/admin-stats-cards';
import { AiGenerateDialog } from '../components/ai-generate-dialog';
import { AiNotConfigured } from '../components/ai-not-configured';
import { BlogPostList } from '../components/blog-post-list';
import { GenerationJobsTable } from '../components/generation-jobs-table';
import { KeywordSuggestions } from '../components/keyword-suggestions';
import { KeywordUploadDialog } from '../components/keyword-upload-dialog';
import { WeeklyAutomation } from '../components/weekly-automation';
import { useKeywordUpload } from '../hooks/use-keyword-upload';

export function AdminRoute() {
  return (
    <AdminOnly>
      <AdminArea />
    </AdminOnly>
  );
}

type GenerateDialogState = { open: boolean; keywords: string[] };

function AdminArea() {
  const stats = useBlogStats();
  const content = useContentStats();
  const upload = useKeywordUpload();
  const keywordCount = useKeywordCount({ poll: upload.ingesting });
  const [uploading, setUploading] = useState(false);
  const [generating, setGenerating] = useState<GenerateDialogState>({ open: false, keywords: [] });
  // Unknown until content-stats answers: the server's 503 speaks if it has no key after all.
  const aiConfigured = content.data?.aiConfigured !== false;

  if (isForbidden(stats.error)) return <AdminAccessDenied />;
  const openGenerate = (keywords: string[] = []) => setGenerating({ open: true, keywords });
  return (
    <>
      <PageHeader
        title="Admin"
        description="Keywords, AI drafts and the blog's posts"
        action={
          <>
            <Button variant="outline" onClick={() => setUploading(true)}>
              <ArrowUpTrayIcon aria-hidden className="size-5" />
              Upload Keywords
            </Button>
            <Button variant="secondary" onClick={() => openGenerate()} disabled={!aiConfigured}>
              <SparklesIcon aria-hidden className="size-5" />
              Generate with AI
            </Button>
            <ButtonLink to="/admin/blog/new">
              <PlusIcon aria-hidden className="size-5" />
              New Post
            </ButtonLink>
          </>
        }
      />
      {aiConfigured ? null : <AiNotConfigured className="mb-6" />}
      <AdminStatsCards
        stats={stats.data}
        keywordCount={keywordCount.data?.count}
        ingesting={upload.ingesting}
        content={content.data}
      />
      <div className="mb-6 grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          <WeeklyAutomation aiConfigured={aiConfigured} />
        </div>
        <KeywordSuggestions aiConfigured={aiConfigured} onGenerate={(keyword) => openGenerate([keyword])} />
      </div>
      <div className="mb-6">
        <GenerationJobsTable />
      </div>
      <BlogPostList />
      <KeywordUploadDialog open={uploading} onClose={() => setUploading(false)} upload={upload} />
      <AiGenerateDialog
        open={generating.open}
        onClose={() => setGenerating((current) => ({ ...current, open: false }))}
        initialKeywords={generating.keywords}
        aiConfigured={aiConfigured}
      />
    </>
  );
}

export default AdminRoute;
