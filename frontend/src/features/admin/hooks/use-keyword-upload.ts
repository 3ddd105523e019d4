import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '@/components/ui/toast';
import { KEYWORD_CHUNK_PAUSE_MS, KEYWORD_CHUNK_ROWS } from '@/config';
import { ERROR_CODES, isApiError, serverMessage } from '@/lib/api-error';
import { readText } from '@/lib/read-text';
import type { KeywordRow, KeywordUploadAccepted } from '@/types/api';
import { useKeywordIngests } from '../api/get-keyword-ingests';
import { contentKeys } from '../api/keys';
import { uploadKeywords } from '../api/upload-keywords';
import { CSV_FAILED_TEXT, INVALID_CSV_TEXT, UPLOAD_FAILED_TEXT } from '../lib/content-messages';
import { chunk, isCsvFile, KeywordCsvError, parseKeywordCsv, type ParsedKeywordRow } from '../lib/keyword-csv';

const keywordsNoun = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'keyword' : 'keywords'}`;

/** A chunk the server refused, and which one it was. */
export class ChunkUploadError extends Error {
  readonly index: number;
  readonly reason: unknown;

  constructor(index: number, reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = 'ChunkUploadError';
    this.index = index;
    this.reason = reason;
  }
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type SendOptions = {
  send?: (rows: KeywordRow[]) => Promise<KeywordUploadAccepted>;
  /** After each chunk the server took. */
  onSent?: (accepted: KeywordUploadAccepted, index: number) => void;
  /** Checked before each chunk: stops sending (the page was left). */
  stopped?: () => boolean;
};

/**
 * Sends the chunks one after another with a pause between them (docs/product.md, "Screens":
 * 100 rows, 500 ms), so one upload never floods the server's queue; stops at the first refused chunk.
 *
 * @throws ChunkUploadError naming the refused chunk.
 */
export async function sendKeywordChunks(chunks: readonly KeywordRow[][], options: SendOptions = {}) {
  const { send = uploadKeywords, onSent, stopped } = options;
  for (let index = 0; index < chunks.length; index++) {
    if (index > 0) await pause(KEYWORD_CHUNK_PAUSE_MS);
    if (stopped?.()) return;
    let accepted: KeywordUploadAccepted;
    try {
      accepted = await send(chunks[index]);
    } catch (reason) {
      throw new ChunkUploadError(index, reason);
    }
    onSent?.(accepted, index);
  }
}

const FIELD_NAMES: Record<string, string> = {
  keyword: 'keyword',
  searchVolume: 'search volume',
  difficulty: 'difficulty',
  priority: 'priority',
  category: 'category',
};

/** The server's `keywordData[i].field` errors of one chunk, as rows of the file: 'Row 7, difficulty: ...'. */
export function rowErrors(errors: Record<string, string[]>, rows: readonly ParsedKeywordRow[]): string[] {
  return Object.entries(errors).flatMap(([key, messages]) => {
    const match = /^keywordData\[(\d+)\]\.(\w+)$/.exec(key);
    const row = match ? rows[Number(match[1])] : undefined;
    const where = match && row ? `Row ${row.line}, ${FIELD_NAMES[match[2]] ?? match[2]}` : key;
    return messages.map((message) => `${where}: ${message}`);
  });
}

export type UploadFailure = { title: string; message?: string; details: string[] };

export type KeywordUploadState = {
  status: 'idle' | 'reading' | 'ready' | 'sending' | 'sent' | 'failed';
  fileName: string;
  /** The file's rows with a keyword, once read. */
  rows: ParsedKeywordRow[];
  /** Rows of the file without a keyword (dropped). */
  skipped: number;
  chunkCount: number;
  chunksSent: number;
  /** Rows the server took (and is ingesting). */
  accepted: number;
  ingestIds: number[];
  failure: UploadFailure | null;
};

const IDLE: KeywordUploadState = {
  status: 'idle',
  fileName: '',
  rows: [],
  skipped: 0,
  chunkCount: 0,
  chunksSent: 0,
  accepted: 0,
  ingestIds: [],
  failure: null,
};

/**
 * The keyword CSV upload: reads the chosen file in the browser (`choose`), then sends its rows
 * in chunks with a pause between them (`send`) and follows each chunk's ingest; the keyword
 * count is read again every 5 s meanwhile (`ingesting`). It lives on the admin page, so closing
 * the dialog does not stop it.
 */
export function useKeywordUpload() {
  const client = useQueryClient();
  const [state, setState] = useState<KeywordUploadState>(IDLE);
  const ingest = useKeywordIngests(state.ingestIds);
  const ingesting = state.ingestIds.length > 0 && !ingest.done && !ingest.error;
  const left = useRef(false);

  useEffect(() => {
    left.current = false;
    return () => {
      left.current = true;
    };
  }, []);

  // Once every chunk is in, the count and the suggestions are read one last time.
  const ingested = state.ingestIds.length > 0 && ingest.done;
  useEffect(() => {
    if (ingested) void client.invalidateQueries({ queryKey: contentKeys.keywords() });
  }, [client, ingested]);

  const fail = useCallback((failure: UploadFailure, toastTitle = failure.title, toastText = failure.message) => {
    setState((current) => ({ ...current, status: 'failed', failure }));
    toast({ title: toastTitle, description: toastText, variant: 'error' });
  }, []);

  /** Reads and parses a file; a file that is no CSV, or unreadable, fails at once. */
  const choose = useCallback(
    async (file: File) => {
      setState({ ...IDLE, status: 'reading', fileName: file.name });
      if (!isCsvFile(file)) {
        fail({ title: INVALID_CSV_TEXT, details: [] });
        return;
      }
      try {
        const { rows, skipped } = parseKeywordCsv(await readText(file));
        if (rows.length === 0) {
          fail({ title: CSV_FAILED_TEXT, message: 'The file has no keywords below its header line.', details: [] });
          return;
        }
        setState((current) => ({ ...current, status: 'ready', rows, skipped }));
      } catch (error) {
        const message = error instanceof KeywordCsvError ? error.message : 'The file could not be read.';
        fail({ title: CSV_FAILED_TEXT, message, details: [] });
      }
    },
    [fail],
  );

  /** Sends the chosen file's rows. */
  const send = useCallback(async () => {
    const { rows } = state;
    if (state.status !== 'ready' || rows.length === 0) return;
    const chunks = chunk(rows, KEYWORD_CHUNK_ROWS);
    setState((current) => ({ ...current, status: 'sending', chunkCount: chunks.length, chunksSent: 0 }));
    let accepted = 0;
    try {
      await sendKeywordChunks(
        chunks.map((rowsOfChunk) => rowsOfChunk.map((parsed) => parsed.row)),
        {
          stopped: () => left.current,
          onSent: (answer) => {
            accepted += answer.accepted;
            setState((current) => ({
              ...current,
              chunksSent: current.chunksSent + 1,
              accepted: current.accepted + answer.accepted,
              ingestIds: [...current.ingestIds, answer.ingestId],
            }));
          },
        },
      );
    } catch (error) {
      const reason = error instanceof ChunkUploadError ? error.reason : error;
      if (isApiError(reason) && reason.code === ERROR_CODES.validationFailed) {
        const refused = error instanceof ChunkUploadError ? chunks[error.index] : [];
        fail({ title: reason.message, details: rowErrors(reason.errors, refused) }, UPLOAD_FAILED_TEXT, reason.message);
      } else {
        fail({ title: UPLOAD_FAILED_TEXT, message: serverMessage(reason), details: [] });
      }
      return;
    }
    if (left.current) return;
    setState((current) => ({ ...current, status: 'sent' }));
    toast({
      title: `${keywordsNoun(accepted)} accepted`,
      description: 'They are being added to the keyword list now.',
      variant: 'success',
    });
  }, [fail, state]);

  const reset = useCallback(() => setState(IDLE), []);

  return { state, ingest, ingesting, choose, send, reset };
}

export type KeywordUpload = ReturnType<typeof useKeywordUpload>;
