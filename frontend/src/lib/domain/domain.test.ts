import { describe, expect, it } from 'vitest';
import { COMPANY_KEY_PATTERN, generateCompanyKey } from './company-key';
import { coiTypeLabel, userNotes } from './documents';

describe('company key', () => {
  it('is 8 alphanumeric characters and different each time', () => {
    const keys = new Set(Array.from({ length: 50 }, () => generateCompanyKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(COMPANY_KEY_PATTERN);
  });
});

describe('COI notes', () => {
  it('reads the insurance type from coiType, else from the notes', () => {
    expect(coiTypeLabel({ documentType: 'coi', coiType: 'workers_comp', notes: null })).toBe('Workers Compensation');
    expect(coiTypeLabel({ documentType: 'coi', coiType: null, notes: 'COI Type: General Liability - renewal' })).toBe(
      'General Liability',
    );
    expect(coiTypeLabel({ documentType: 'coi', coiType: null, notes: 'COI Type: workers_comp' })).toBe('Workers Compensation');
    expect(coiTypeLabel({ documentType: 'w9', coiType: null, notes: 'COI Type: Automobile' })).toBeNull();
  });
  it("strips the 'COI Type: ...' prefix from notes", () => {
    expect(userNotes('COI Type: General Liability - renewal due')).toBe('renewal due');
    expect(userNotes('COI Type: Automobile')).toBe('');
    expect(userNotes('plain notes')).toBe('plain notes');
  });
});
