import { ArrowDownTrayIcon, ClockIcon, EyeIcon } from '@heroicons/react/20/solid';
import { useQueries } from '@tanstack/react-query';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadingBlock } from '@/components/ui/query-state';
import { coiTypeLabel, documentTypeLabel } from '@/lib/domain/documents';
import { formatDate } from '@/lib/format';
import type { VendorDocument } from '@/types/api';
import { getDocumentQueryOptions } from '../api/get-document';
import { useDownload } from '../hooks/use-download';

type HistoryEntry = { current: VendorDocument; previous: VendorDocument };

/**
 * Earlier versions of renewed documents: a renewal makes the new upload current and keeps the
 * old one on file. Only documents past version 1 have any, so only they are asked for.
 */
export function DocumentHistory({ documents }: { documents: readonly VendorDocument[] }) {
  const renewed = documents.filter((d) => (d.version ?? 1) > 1);
  const results = useQueries({ queries: renewed.map((d) => getDocumentQueryOptions(d.id)) });
  const { start, pendingId } = useDownload();
  if (renewed.length === 0) return null;

  const entries: HistoryEntry[] = results.flatMap((result, i) =>
    (result.data?.history ?? []).map((previous) => ({ current: renewed[i]!, previous })),
  );
  const loading = results.some((r) => r.isPending);
  const icon = buttonClasses('ghost', 'icon-sm');

  return (
    <Card className="min-w-0">
      <CardHeader title="Version History" description="Earlier versions kept on file after a renewal" />
      {loading ? (
        <LoadingBlock label="Loading version history" />
      ) : entries.length === 0 ? (
        <p className="px-5 py-6 text-sm text-slate-500">No earlier versions.</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Version history">
          {entries.map(({ current, previous }) => {
            const coi = coiTypeLabel(previous);
            return (
              <li key={previous.id} className="flex items-center gap-3 px-4 py-3 sm:gap-4 sm:px-5">
                <ClockIcon aria-hidden className="hidden size-4 shrink-0 text-slate-400 sm:block" />
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                    <span className="min-w-0 truncate" title={previous.fileName}>
                      {previous.fileName}
                    </span>
                    <Badge>Version {previous.version ?? 1}</Badge>
                  </p>
                  <p className="mt-0.5 text-xs text-slate-500">
                    {documentTypeLabel(previous.documentType)}
                    {coi ? ` · ${coi}` : ''}
                  </p>
                  <p className="text-xs text-slate-500">
                    Uploaded {formatDate(previous.uploadedAt)} · Expires {formatDate(previous.expirationDate)} · Replaced by
                    version {current.version}
                  </p>
                </div>
                <div className="flex items-center gap-1">
                  <a
                    href={`/view-document/${previous.id}`}
                    target="_blank"
                    rel="noopener noreferrer"
                    className={icon}
                    aria-label={`View version ${previous.version ?? 1}`}
                    title="View"
                  >
                    <EyeIcon aria-hidden className="size-4" />
                  </a>
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    aria-label={`Download version ${previous.version ?? 1}`}
                    title="Download"
                    disabled={pendingId === previous.id}
                    onClick={() => start(previous.id)}
                  >
                    <ArrowDownTrayIcon aria-hidden className="size-4" />
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
