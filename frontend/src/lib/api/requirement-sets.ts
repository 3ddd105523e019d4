import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { scopedKey } from '@/lib/query-keys';
import type { RequirementSet, RequirementTemplate } from '@/types/api';

/**
 * The organization's requirement sets: the Requirements page lists and edits them, the vendor
 * forms offer them in a select and the vendor page names its vendor's.
 */
export const requirementKeys = {
  all: () => scopedKey('requirements'),
  sets: () => [...requirementKeys.all(), 'sets'] as const,
  templates: () => [...requirementKeys.all(), 'templates'] as const,
};

/** The sets, by name (every role may read them). */
export function getRequirementSets(): Promise<RequirementSet[]> {
  return api.get<RequirementSet[]>('/api/requirement-sets');
}

export function getRequirementSetsQueryOptions() {
  return queryOptions({ queryKey: requirementKeys.sets(), queryFn: getRequirementSets });
}

export function useRequirementSets() {
  return useQuery(getRequirementSetsQueryOptions());
}

/** The three starting points a new set may copy. */
export function getRequirementTemplates(): Promise<RequirementTemplate[]> {
  return api.get<RequirementTemplate[]>('/api/requirement-sets/templates');
}

export function useRequirementTemplates({ enabled }: { enabled: boolean }) {
  return useQuery({ queryKey: requirementKeys.templates(), queryFn: getRequirementTemplates, enabled, staleTime: Infinity });
}
