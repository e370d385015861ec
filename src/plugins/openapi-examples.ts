/**
 * An example request body per public operation, shown by the reference page and offered by
 * generators; `test/openapi-generators.test.ts` validates each against the operation's schema.
 */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  createJob: {
    title: 'Senior Backend Engineer',
    category: 'engineering',
    description: '<p>Build the services behind our booking platform.</p>',
    responsibilities: ['Design and run APIs', 'Review code'],
    skills: [
      { name: 'TypeScript', level: 'required' },
      { name: 'PostgreSQL', level: 'nice_to_have' },
    ],
    benefits: ['Four-day week'],
    questions: [
      { id: 'start_date', label: 'Earliest start date', type: 'date', required: true },
      {
        id: 'shift',
        label: 'Preferred shift',
        type: 'single_select',
        options: [
          { value: 'early', label: 'Early' },
          { value: 'late', label: 'Late' },
        ],
      },
    ],
    employmentType: 'full_time',
    contractType: 'permanent',
    salary: { min: 140000, max: 165000, currency: 'AUD', period: 'year' },
    location: { country: 'AU', state: 'NSW', city: 'Sydney', remotePolicy: 'hybrid' },
  },
  editJob: {
    description: '<p>Build and run the services behind our booking platform.</p>',
    publishEdits: true,
  },
  publishJob: { expiryDays: 60 },
  createUpload: { bytes: 48213, fileName: 'cv.pdf' },
  createApplication: {
    name: 'Ana Souza',
    email: 'ana.souza@example.com',
    phone: '+61 400 000 000',
    cv: { uploadId: 'upl_01J9Z6Q4T8N5V2W7X3Y0K1M6PB' },
    coverNote: 'I have run payment APIs for six years.',
    consent: {
      consentTextId: 'console_api_apply',
      version: '2026-03-01',
      locale: 'en',
      acceptedAt: '2026-03-10T09:14:03.000Z',
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    },
    lawfulBasis: { attested: true, basis: 'candidate_consent_on_integrator_site' },
    answers: [
      { question: 'How did you hear about us?', answer: 'A friend' },
      { questionId: 'start_date', answer: '2026-04-01' },
      { questionId: 'shift', answer: 'early' },
    ],
    source: { utmSource: 'newsletter', utmCampaign: 'spring', referrer: 'https://www.example.com/careers' },
  },
  validateApplication: {
    name: 'Ana Souza',
    email: 'ana.souza@example.com',
    phone: '+61 400 000 000',
    cv: { uploadId: 'upl_01J9Z6Q4T8N5V2W7X3Y0K1M6PB' },
    coverNote: 'I have run payment APIs for six years.',
    consent: {
      consentTextId: 'console_api_apply',
      version: '2026-03-01',
      locale: 'en',
      acceptedAt: '2026-03-10T09:14:03.000Z',
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    },
    lawfulBasis: { attested: true, basis: 'candidate_consent_on_integrator_site' },
    answers: [
      { question: 'How did you hear about us?', answer: 'A friend' },
      { questionId: 'start_date', answer: '2026-04-01' },
      { questionId: 'shift', answer: 'early' },
    ],
    source: { utmSource: 'newsletter', utmCampaign: 'spring', referrer: 'https://www.example.com/careers' },
  },
  createCandidate: {
    name: 'Ana Souza',
    email: 'ana.souza@example.com',
    cv: { uploadId: 'upl_01J9Z6Q4T8N5V2W7X3Y0K1M6PB' },
    sendClaimEmail: true,
    locale: 'en',
    lawfulBasis: { attested: true, basis: 'legitimate_interest_talent_pool' },
  },
  triggerScreening: {
    templateId: 'tpl_01J9Z6Q4T8N5V2W7X3Y0K1M6PB',
    completeBy: '2026-03-17T23:59:59.000Z',
    message: 'Thanks for applying: this short screening takes about ten minutes.',
    language: 'en',
  },
  testMoveCv: { to: 'staged' },
};
