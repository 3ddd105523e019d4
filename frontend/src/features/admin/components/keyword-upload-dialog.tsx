import { Button } from '@/components/ui/button';
import { CsvFileInput } from '@/components/ui/csv-file-input';
import { Dialog } from '@/components/ui/dialog';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { KEYWORD_CHUNK_ROWS } from '@/config';
import type { KeywordUpload } from '../hooks/use-keyword-upload';

const count = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

type KeywordUploadDialogProps = { open: boolean; onClose: () => void; upload: KeywordUpload };

/**
 * Upload Keywords: a CSV read in the browser, sent in chunks of 100 rows with a progress bar,
 * then the ingest's progress. Closing the dialog does not stop an upload (it belongs to the page).
 */
export function KeywordUploadDialog({ open, onClose, upload }: KeywordUploadDialogProps) {
  const { state } = upload;
  const busy = state.status === 'reading' || state.status === 'sending';

  function pick(file: File | undefined) {
    if (file) void upload.choose(file);
    else upload.reset();
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Upload Keywords"
      description="A CSV file whose first line is a header, then one keyword a row in these columns: keyword, search volume, difficulty (1-100), priority (high, medium or low), category."
      className="max-w-xl"
    >
      <div className="space-y-4">
        <CsvFileInput
          disabled={busy}
          onPick={pick}
          hint={
            <p className="text-xs text-slate-500">
              Rows without a keyword are skipped. A keyword already listed, in any case, is merged into it.
            </p>
          }
        />
        <UploadProgress upload={upload} />
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          {state.status === 'ready' || state.status === 'sending' ? (
            <Button onClick={() => void upload.send()} disabled={state.status === 'sending'}>
              {state.status === 'sending' ? 'Uploading...' : `Upload ${count(state.rows.length, 'keyword')}`}
            </Button>
          ) : null}
        </div>
      </div>
    </Dialog>
  );
}

function UploadProgress({ upload }: { upload: KeywordUpload }) {
  const { state, ingest, ingesting } = upload;
  if (state.status === 'idle') return null;
  if (state.status === 'reading') {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner className="size-4" label="Reading the file" />
        Reading {state.fileName}...
      </p>
    );
  }
  const sendingText = `${state.chunksSent} of ${state.chunkCount} chunks sent`;
  const ingestText = `${ingest.chunksDone} of ${ingest.chunks} chunks added`;
  return (
    <div className="space-y-3">
      {state.status === 'ready' ? (
        <p className="text-sm text-slate-700">
          {count(state.rows.length, 'keyword')} found in {state.fileName}
          {state.skipped ? `; ${count(state.skipped, 'row')} without a keyword will be skipped` : ''}.
        </p>
      ) : null}
      {state.status === 'sending' || state.status === 'sent' ? (
        <div className="space-y-1.5">
          <div className="flex justify-between gap-2 text-sm text-slate-700">
            <span>Sending in chunks of {KEYWORD_CHUNK_ROWS} rows</span>
            <span className="tabular-nums">{sendingText}</span>
          </div>
          <ProgressBar
            label="Upload progress"
            value={state.chunkCount ? (state.chunksSent / state.chunkCount) * 100 : 0}
            valueText={sendingText}
          />
        </div>
      ) : null}
      {state.ingestIds.length > 0 ? (
        <div className="space-y-1.5">
          <div className="flex justify-between gap-2 text-sm text-slate-700">
            <span>{ingesting ? 'Adding keywords...' : 'Keywords added'}</span>
            {ingest.chunks ? <span className="tabular-nums">{ingestText}</span> : null}
          </div>
          <ProgressBar
            label="Ingest progress"
            value={ingest.chunks ? (ingest.chunksDone / ingest.chunks) * 100 : 0}
            valueText={ingest.chunks ? ingestText : undefined}
          />
        </div>
      ) : null}
      <p aria-live="polite" className="text-sm text-slate-700">
        <UploadOutcome upload={upload} />
      </p>
      {state.failure ? (
        <div role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          <p className="font-medium">{state.failure.title}</p>
          {state.failure.message ? <p className="mt-1">{state.failure.message}</p> : null}
          {state.failure.details.length ? (
            <ul className="mt-2 max-h-40 list-disc space-y-0.5 overflow-auto pl-5" aria-label="Rows refused">
              {state.failure.details.map((detail) => (
                <li key={detail}>{detail}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** The live sentence: what has happened so far. */
function UploadOutcome({ upload }: { upload: KeywordUpload }) {
  const { state, ingest, ingesting } = upload;
  if (state.status === 'failed' && state.accepted > 0) {
    return <>{count(state.accepted, 'keyword')} sent before the failure are still added.</>;
  }
  if (state.status !== 'sent') return null;
  if (ingest.error) return <>The keywords were accepted; their progress could not be read.</>;
  if (ingesting) return <>{count(state.accepted, 'keyword')} accepted; adding them now.</>;
  return (
    <>
      Done: {count(ingest.inserted, 'new keyword')}, {count(ingest.merged, 'keyword')} merged into existing ones.
    </>
  );
}
