import type { CoverageLine, CoverageLineKey, CoverageSuggestion } from '@/types/api';

/** How sure the reader is of a value, in words (never by colour alone). */
export type ConfidenceLevel = 'High' | 'Medium' | 'Low';

/** A confidence from 0 to 1 in words: High from 0.8, Medium from 0.5, Low below. */
export function confidenceLevel(score: number): ConfidenceLevel {
  if (score >= 0.8) return 'High';
  if (score >= 0.5) return 'Medium';
  return 'Low';
}

/** A line as read, with its place in the reading (`lines[2]...`, the confidence's paths). */
export type SuggestedLine = { index: number; line: CoverageLine };

/**
 * The lines read that the form can take, by kind: the form holds one line of each kind, so the
 * first of a kind is offered and any other of the same kind is in `others`, to be told.
 */
export function suggestedLines(suggestion: CoverageSuggestion): {
  byKind: Map<CoverageLineKey, SuggestedLine>;
  others: SuggestedLine[];
} {
  const byKind = new Map<CoverageLineKey, SuggestedLine>();
  const others: SuggestedLine[] = [];
  suggestion.lines.forEach((line, index) => {
    if (byKind.has(line.line)) others.push({ index, line });
    else byKind.set(line.line, { index, line });
  });
  return { byKind, others };
}

/** The earliest expiration date of the lines read (YYYY-MM-DD), or null when none has one. */
export function earliestExpiration(suggestion: CoverageSuggestion): string | null {
  const dates = suggestion.lines.map((line) => line.expirationDate).filter((date): date is string => Boolean(date));
  return dates.length > 0 ? dates.sort()[0]! : null;
}
