import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-error';
import type { KeywordRow, KeywordUploadAccepted } from '@/types/api';
import { ChunkUploadError, rowErrors, sendKeywordChunks } from './use-keyword-upload';

const row = (keyword: string): KeywordRow => ({ keyword, searchVolume: '', difficulty: '', priority: '', category: '' });
const accepted = (rows: KeywordRow[]): KeywordUploadAccepted => ({ accepted: rows.length, dropped: 0, chunks: 1, ingestId: 1 });

afterEach(() => vi.useRealTimers());

describe('sendKeywordChunks', () => {
  it('sends one chunk at a time with a 500 ms pause between chunks', async () => {
    vi.useFakeTimers();
    const send = vi.fn(async (rows: KeywordRow[]) => accepted(rows));
    const onSent = vi.fn();
    const done = sendKeywordChunks([[row('a'), row('b')], [row('c')], [row('d')]], { send, onSent });

    await vi.advanceTimersByTimeAsync(0);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenLastCalledWith([row('a'), row('b')]);
    await vi.advanceTimersByTimeAsync(499);
    expect(send).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledTimes(2);
    expect(send).toHaveBeenLastCalledWith([row('c')]);
    await vi.advanceTimersByTimeAsync(499);
    expect(send).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledTimes(3);
    await done;
    expect(onSent.mock.calls.map(([answer, index]) => [answer.accepted, index])).toEqual([
      [2, 0],
      [1, 1],
      [1, 2],
    ]);
  });

  it('stops at the first refused chunk and names it', async () => {
    const refusal = new ApiError(422, 'validation_failed', 'Some rows are invalid.');
    const send = vi.fn(async (rows: KeywordRow[]) => {
      if (rows[0].keyword === 'bad') throw refusal;
      return accepted(rows);
    });
    const error = await sendKeywordChunks([[row('ok')], [row('bad')], [row('never')]], { send }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkUploadError);
    expect((error as ChunkUploadError).index).toBe(1);
    expect((error as ChunkUploadError).reason).toBe(refusal);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('sends nothing more once stopped (the page was left)', async () => {
    let left = false;
    const send = vi.fn(async (rows: KeywordRow[]) => {
      left = true;
      return accepted(rows);
    });
    await sendKeywordChunks([[row('a')], [row('b')]], { send, stopped: () => left });
    expect(send).toHaveBeenCalledTimes(1);
  });
});

describe('rowErrors', () => {
  it('names each refused row by its row in the file and the field in words', () => {
    const rows = [
      { line: 2, row: row('a') },
      { line: 5, row: row('b') },
    ];
    expect(
      rowErrors(
        {
          'keywordData[1].difficulty': ['Difficulty must be between 1 and 100'],
          'keywordData[0].searchVolume': ['Search volume must be a whole number'],
          keywordData: ['At most 20,000 rows at a time'],
        },
        rows,
      ),
    ).toEqual([
      'Row 5, difficulty: Difficulty must be between 1 and 100',
      'Row 2, search volume: Search volume must be a whole number',
      'keywordData: At most 20,000 rows at a time',
    ]);
  });
});
