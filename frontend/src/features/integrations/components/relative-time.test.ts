import { describe, expect, it } from 'vitest';
import { timeAgo } from './relative-time';

describe('timeAgo', () => {
  const now = new Date('2025-01-10T12:00:00Z');

  it('says how long ago, in the largest whole unit', () => {
    expect(timeAgo('2025-01-10T11:59:30Z', 'Never', now)).toBe('just now');
    expect(timeAgo('2025-01-10T11:55:00Z', 'Never', now)).toBe('5 minutes ago');
    expect(timeAgo('2025-01-10T10:30:00Z', 'Never', now)).toBe('1 hour ago');
    expect(timeAgo('2025-01-09T11:00:00Z', 'Never', now)).toBe('yesterday');
    expect(timeAgo('2025-01-01T12:00:00Z', 'Never', now)).toBe('last week');
    expect(timeAgo('2024-10-01T12:00:00Z', 'Never', now)).toBe('3 months ago');
    expect(timeAgo('2022-12-01T12:00:00Z', 'Never', now)).toBe('2 years ago');
  });

  it('says `never` without a time, and now for one ahead of the clock', () => {
    expect(timeAgo(null, 'Never', now)).toBe('Never');
    expect(timeAgo('not a date', 'Never', now)).toBe('Never');
    expect(timeAgo('2025-01-10T12:05:00Z', 'Never', now)).toBe('just now');
  });
});
