import { useSearchParams } from 'react-router';
import { Logo } from '@/components/logo';
import { SampleCertificate } from '../components/sample-certificate';

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
        <SampleCertificate id={id} />
      </main>
    </div>
  );
}

export default DocumentViewerRoute;
