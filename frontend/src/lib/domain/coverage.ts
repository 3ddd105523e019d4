import type { CoverageLineKey, CoverageSource, RequirementLine } from '@/types/api';

/** The lines of insurance, in the order of an ACORD 25 certificate (docs/product.md, "Requirements and gaps"). */
export const COVERAGE_LINES: readonly CoverageLineKey[] = [
  'general_liability',
  'automobile',
  'umbrella',
  'workers_comp',
  'professional',
];

export const LINE_LABELS: Record<CoverageLineKey, string> = {
  general_liability: 'General liability',
  automobile: 'Automobile liability',
  umbrella: 'Umbrella liability',
  workers_comp: "Workers' compensation and employer's liability",
  professional: 'Professional liability',
};

/** Who said what a certificate shows, in words: 'Entered by hand'. */
export const COVERAGE_SOURCE_LABELS: Record<CoverageSource, string> = {
  manual: 'Entered by hand',
  extracted: 'Read from the certificate automatically, not yet checked',
  confirmed: 'Read from the certificate automatically and checked',
};

/** Each line's limits, in the certificate's order, with the words a sentence uses for them. */
export const LINE_LIMITS: Record<CoverageLineKey, readonly { key: string; label: string }[]> = {
  general_liability: [
    { key: 'eachOccurrence', label: 'each occurrence' },
    { key: 'generalAggregate', label: 'general aggregate' },
    { key: 'productsCompletedOps', label: 'products and completed operations' },
    { key: 'personalAdvertisingInjury', label: 'personal and advertising injury' },
    { key: 'damageToRentedPremises', label: 'damage to rented premises' },
    { key: 'medicalExpense', label: 'medical expense' },
  ],
  automobile: [{ key: 'combinedSingleLimit', label: 'combined single limit' }],
  workers_comp: [
    { key: 'employersLiabilityEachAccident', label: "employer's liability each accident" },
    { key: 'employersLiabilityDiseaseEachEmployee', label: 'disease, each employee' },
    { key: 'employersLiabilityDiseasePolicyLimit', label: 'disease, policy limit' },
  ],
  umbrella: [
    { key: 'eachOccurrence', label: 'each occurrence' },
    { key: 'aggregate', label: 'aggregate' },
  ],
  professional: [
    { key: 'eachClaim', label: 'each claim' },
    { key: 'aggregate', label: 'aggregate' },
  ],
};

/** A limit's words with a capital first letter, for a form's label. */
export function limitLabel(line: CoverageLineKey, key: string): string {
  const label = LINE_LIMITS[line].find((limit) => limit.key === key)?.label ?? key;
  return label.charAt(0).toUpperCase() + label.slice(1);
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** Whole dollars as '$1,000,000'. */
export function formatDollars(amount: number): string {
  return dollars.format(amount);
}

/**
 * A set's line in words: 'General liability: $1,000,000 each occurrence, $2,000,000 general
 * aggregate; additional insured'. Limits in the certificate's order; a line without any says so.
 */
export function describeRequirementLine(line: RequirementLine): string {
  const limits = LINE_LIMITS[line.line]
    .filter(({ key }) => typeof line.minimums[key] === 'number')
    .map(({ key, label }) => `${formatDollars(line.minimums[key])} ${label}`);
  const endorsements = [
    line.additionalInsured ? 'additional insured' : null,
    line.waiverOfSubrogation ? 'waiver of subrogation' : null,
  ].filter(Boolean);
  const parts = [limits.length > 0 ? limits.join(', ') : 'any limits', ...(endorsements.length ? [endorsements.join(', ')] : [])];
  return `${LINE_LABELS[line.line]}: ${parts.join('; ')}`;
}
