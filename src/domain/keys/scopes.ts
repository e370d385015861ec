export const SCOPES = ['jobs:read', 'jobs:write', 'applications:write', 'screening'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
