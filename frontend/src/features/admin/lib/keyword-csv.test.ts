import { describe, expect, it } from 'vitest';
import { chunk, isCsvFile, KeywordCsvError, parseKeywordCsv } from './keyword-csv';

describe('parseKeywordCsv', () => {
  it('skips the header line and reads the columns in order: keyword, search volume, difficulty, priority, category', () => {
    const { rows, skipped } = parseKeywordCsv(
      ['Keyword,Volume,KD,Priority,Category', 'vendor onboarding, 1200 ,45,high,Onboarding', 'w-9 forms,300,20,low,Tax'].join(
        '\n',
      ),
    );
    expect(skipped).toBe(0);
    expect(rows).toEqual([
      {
        line: 2,
        row: { keyword: 'vendor onboarding', searchVolume: '1200', difficulty: '45', priority: 'high', category: 'Onboarding' },
      },
      { line: 3, row: { keyword: 'w-9 forms', searchVolume: '300', difficulty: '20', priority: 'low', category: 'Tax' } },
    ]);
  });

  it('skips the first line whatever it holds: a file without a header loses its first row', () => {
    const { rows } = parseKeywordCsv('coi tracking,10,5,high,Insurance\nvendor risk,20,6,low,Risk');
    expect(rows.map((r) => r.row.keyword)).toEqual(['vendor risk']);
  });

  it('drops rows without a keyword and counts them, ignoring blank lines', () => {
    const { rows, skipped } = parseKeywordCsv(
      [
        'keyword,volume,difficulty,priority,category',
        ',100,10,high,X',
        '   ,5,5,low,Y',
        'coi expiration,50,30,medium,Z',
        '',
        '',
      ].join('\r\n'),
    );
    expect(rows.map((r) => r.row.keyword)).toEqual(['coi expiration']);
    expect(rows[0].line).toBe(4);
    expect(skipped).toBe(2);
  });

  it('leaves missing columns empty (the server applies its defaults) and keeps quoted commas', () => {
    const { rows } = parseKeywordCsv('keyword\n"vendor w-9, 2025"\nsubcontractor insurance,10');
    expect(rows.map((r) => r.row)).toEqual([
      { keyword: 'vendor w-9, 2025', searchVolume: '', difficulty: '', priority: '', category: '' },
      { keyword: 'subcontractor insurance', searchVolume: '10', difficulty: '', priority: '', category: '' },
    ]);
  });

  it('refuses text that is not readable as CSV', () => {
    expect(() => parseKeywordCsv('keyword,volume\n"unclosed,10\nother,5')).toThrow(KeywordCsvError);
  });
});

describe('isCsvFile', () => {
  it('takes .csv files, in any case, and nothing else', () => {
    expect(isCsvFile(new File([''], 'keywords.csv'))).toBe(true);
    expect(isCsvFile(new File([''], 'KEYWORDS.CSV', { type: 'application/vnd.ms-excel' }))).toBe(true);
    expect(isCsvFile(new File([''], 'keywords.xlsx'))).toBe(false);
    expect(isCsvFile(new File([''], 'keywords.csv.txt', { type: 'text/plain' }))).toBe(false);
    expect(isCsvFile(new File([''], 'csv'))).toBe(false);
  });
});

describe('chunk', () => {
  it('splits in order into chunks of the given size, the last one shorter', () => {
    const rows = Array.from({ length: 250 }, (_, i) => i);
    const chunks = chunk(rows, 100);
    expect(chunks.map((c) => c.length)).toEqual([100, 100, 50]);
    expect(chunks[1][0]).toBe(100);
    expect(chunk([], 100)).toEqual([]);
  });
});
