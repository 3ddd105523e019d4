import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { Logo } from '@/components/logo';
import { Spinner } from '@/components/ui/spinner';

// Its own file: the build's merging of small files once put the certificate with the
// dashboard's stat cards, 2 KB the signed-in way never shows.
const SampleCertificate = lazy(() => import('../components/sample-certificate').then((m) => ({ default: m.SampleCertificate })));

export const DEFAULT_SAMPLE_ID = '7';

/** /document-viewer: a static sample certificate; optional ?id=, default 7. */
export function DocumentViewerRoute() {
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() || DEFAULT_SAMPLE_ID;
  return (
    <div className="min-h-dvh bg-slate-100">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-14 max-w-6xl items-center justify-between px-4 sm:px-6">
          <Logo />
          <p className="text-sm text-slate-500">Document viewer · #{id}</p>
        </div>
      </header>
      <main className="px-4 py-8 sm:px-6">
        <Suspense fallback={<Spinner label="Loading the certificate" />}>
          <SampleCertificate id={id} />
        </Suspense>
      </main>
    </div>
  );
}

export default DocumentViewerRoute;
