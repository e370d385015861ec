/**
 * The application the benchmarks send: a made-up candidate, the API's consent text and its
 * version, and an attested lawful basis (api.md's ApplicationWrite). One copy for every scenario.
 */
export function benchApplication(email: string, uploadId: string): Record<string, unknown> {
  return {
    name: 'Bench Candidate',
    email,
    cv: { uploadId },
    consent: {
      consentTextId: 'console_api_apply',
      version: 'api_apply_v1',
      acceptedAt: Date.now(),
      ip: '203.0.113.9',
      userAgent: 'bench',
    },
    lawfulBasis: { attested: true },
  };
}
