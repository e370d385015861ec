import { Type } from 'typebox';
import { CATEGORIES } from '../../contract/job.ts';
import { Text } from '../../contract/text.ts';
import type { FeedFilter } from '../../domain/jobs/job-repository.ts';

/**
 * The feed's filters as query parameters, shared by the HTML page and the JSON feed: all optional,
 * bounded, and GET-only so every filtered list has its own indexable address.
 */
export const FeedFilterQuery = {
  q: Type.Optional(Text({ maxLength: 100, description: 'Words in the title, company or skills.' })),
  category: Type.Optional(Text({ maxLength: 40, description: `One of: ${CATEGORIES.join(', ')}.` })),
  place: Type.Optional(Text({ maxLength: 80, description: 'A city, region or country.' })),
  remote: Type.Optional(Text({ maxLength: 5, description: '1 (or on, true): fully remote roles only.' })),
};

export interface FeedFilterParams {
  q?: string;
  category?: string;
  place?: string;
  remote?: string;
}

const isCategory = (value: string): boolean => (CATEGORIES as readonly string[]).includes(value);

/** The filter the query asks for: blank values and an unknown category are no filter at all. */
export function readFeedFilter(query: FeedFilterParams): FeedFilter {
  const filter: FeedFilter = {};
  const q = query.q?.trim();
  if (q) filter.text = q;
  const place = query.place?.trim();
  if (place) filter.place = place;
  if (query.category && isCategory(query.category)) filter.category = query.category;
  if (query.remote && ['1', 'on', 'true'].includes(query.remote)) filter.remote = true;
  return filter;
}

/** The filter as a query string (`&`-joined, no leading `?`), for next-page links. */
export function filterQuery(filter: FeedFilter): string {
  const params = new URLSearchParams();
  if (filter.text) params.set('q', filter.text);
  if (filter.category) params.set('category', filter.category);
  if (filter.place) params.set('place', filter.place);
  if (filter.remote) params.set('remote', '1');
  return params.toString();
}
