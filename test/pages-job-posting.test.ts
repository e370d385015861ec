import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { consoleCall, intakeAccount } from './support/accounts.ts';
import { BASE_URL, useTestApp } from './support/app.ts';
import { createPublished } from './support/jobs.ts';
import { linkPath } from './support/mail.ts';

/**
 * The hosted job page as Google for Jobs reads it (issue 15 items 8 and 9): every JobPosting the
 * page emits passes Google's required properties, a role Google would reject emits none, the
 * alternates are absolute, and the page shows the ad's seniority, experience, work style and the
 * country's name.
 */

const ctx = useTestApp();

type Ld = Record<string, unknown>;

function jsonLdOf(html: string): Ld[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) =>
    JSON.parse(m[1]!),
  );
}

const isObject = (v: unknown): v is Ld => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown) => typeof v === 'string' && v.trim().length > 0;
const isoDate = (v: unknown) =>
  typeof v === 'string' && !Number.isNaN(Date.parse(v)) && /T|^\d{4}-\d{2}-\d{2}$/.test(v);

/**
 * Google's JobPosting rules (developers.google.com/search/docs/appearance/structured-data/job-posting):
 * required datePosted, description, hiringOrganization (with name), title, and jobLocation (a Place
 * whose address names at least a locality, region or country) — or, for a fully remote job,
 * jobLocationType TELECOMMUTE with applicantLocationRequirements. Recommended: validThrough,
 * employmentType (from Google's list), baseSalary (a MonetaryAmount with a currency), identifier,
 * directApply. Answers the problems found; empty when valid.
 */
function jobPostingProblems(ld: Ld): string[] {
  const problems: string[] = [];
  if (ld['@context'] !== 'https://schema.org/' && ld['@context'] !== 'https://schema.org')
    problems.push('@context');
  if (ld['@type'] !== 'JobPosting') problems.push('@type');
  for (const field of ['title', 'description']) if (!nonEmpty(ld[field])) problems.push(field);
  if (!isoDate(ld.datePosted)) problems.push('datePosted');
  const org = ld.hiringOrganization;
  if (!isObject(org) || org['@type'] !== 'Organization' || !nonEmpty(org.name))
    problems.push('hiringOrganization');
  const place = ld.jobLocation;
  const placeOk =
    isObject(place) &&
    place['@type'] === 'Place' &&
    isObject(place.address) &&
    place.address['@type'] === 'PostalAddress' &&
    ['addressLocality', 'addressRegion', 'addressCountry'].some((k) => nonEmpty((place.address as Ld)[k]));
  const remoteOk =
    ld.jobLocationType === 'TELECOMMUTE' &&
    isObject(ld.applicantLocationRequirements) &&
    nonEmpty(ld.applicantLocationRequirements.name);
  if (!placeOk && !remoteOk) problems.push('jobLocation or TELECOMMUTE + applicantLocationRequirements');
  if (place !== undefined && !placeOk) problems.push('jobLocation malformed');
  if (ld.validThrough !== undefined && !isoDate(ld.validThrough)) problems.push('validThrough');
  const types = [
    'FULL_TIME',
    'PART_TIME',
    'CONTRACTOR',
    'TEMPORARY',
    'INTERN',
    'VOLUNTEER',
    'PER_DIEM',
    'OTHER',
  ];
  if (ld.employmentType !== undefined) {
    const list = Array.isArray(ld.employmentType) ? ld.employmentType : [ld.employmentType];
    if (!list.every((t) => types.includes(String(t)))) problems.push('employmentType');
  }
  const salary = ld.baseSalary;
  if (salary !== undefined) {
    const value = isObject(salary) ? salary.value : undefined;
    if (
      !isObject(salary) ||
      salary['@type'] !== 'MonetaryAmount' ||
      !/^[A-Z]{3}$/.test(String(salary.currency)) ||
      !isObject(value) ||
      value['@type'] !== 'QuantitativeValue'
    )
      problems.push('baseSalary');
  }
  return problems;
}

async function publishedPage(ad: Record<string, unknown>, companyName = 'Posting Co') {
  const intake = await intakeAccount(ctx.app, { companyName });
  await consoleCall(ctx.app, 'PATCH', `/accounts/${intake.account.id}`, {
    logoUrl: 'https://logo.example/posting.png',
  });
  const job = await createPublished(intake.api, ad, { expiryDays: 30 });
  const res = await ctx.app.inject({ method: 'GET', url: linkPath(job.url!) });
  assert.equal(res.statusCode, 200, res.body);
  return { job, html: res.body };
}

describe('JobPosting JSON-LD', () => {
  test('an ad with a place, and a remote ad with the applicant’s country, pass Google’s rules', async () => {
    for (const location of [
      { city: 'Brisbane', state: 'QLD', country: 'AU', remotePolicy: 'hybrid' },
      { country: 'AU' },
      { country: 'NZ', remotePolicy: 'remote' },
    ]) {
      const { html } = await publishedPage({
        title: 'Site Reliability Engineer',
        description: '<p>Keep it up.</p>',
        employmentType: 'full_time',
        salary: { min: 120000, max: 150000, currency: 'AUD', period: 'year' },
        location,
      });
      const [ld, ...more] = jsonLdOf(html);
      assert.equal(more.length, 0);
      assert.ok(ld, `${JSON.stringify(location)}: a JobPosting`);
      assert.deepEqual(jobPostingProblems(ld), [], `${JSON.stringify(location)}: ${JSON.stringify(ld)}`);
      assert.ok(ld.validThrough, 'recommended validThrough when the ad expires');
      assert.deepEqual(ld.hiringOrganization, {
        '@type': 'Organization',
        name: 'Posting Co',
        logo: 'https://logo.example/posting.png',
      });
    }
  });

  test('an ad Google would reject (no location, or remote without a country) carries no JobPosting', async () => {
    for (const location of [undefined, { remotePolicy: 'remote' }]) {
      const { html } = await publishedPage({
        title: 'Anywhere Role',
        description: '<p>Hi.</p>',
        ...(location ? { location } : {}),
      });
      assert.deepEqual(jsonLdOf(html), [], JSON.stringify(location));
    }
  });

  test('the validator itself refuses what Google refuses', () => {
    assert.deepEqual(
      jobPostingProblems({
        '@context': 'https://schema.org/',
        '@type': 'JobPosting',
        title: 'T',
        description: 'D',
        datePosted: '2026-03-15T09:00:00.000Z',
        hiringOrganization: { '@type': 'Organization', name: 'Co' },
      }),
      ['jobLocation or TELECOMMUTE + applicantLocationRequirements'],
    );
    assert.deepEqual(
      jobPostingProblems({
        '@type': 'JobPosting',
        title: '',
        datePosted: 'soon',
        jobLocationType: 'TELECOMMUTE',
        employmentType: ['FULLTIME'],
      }),
      [
        '@context',
        'title',
        'description',
        'datePosted',
        'hiringOrganization',
        'jobLocation or TELECOMMUTE + applicantLocationRequirements',
        'employmentType',
      ],
    );
  });
});

describe('the job page itself', () => {
  test('hreflang alternates and the canonical link are absolute URLs', async () => {
    const { html } = await publishedPage({ title: 'Analyst', location: { city: 'Lyon', country: 'FR' } });
    const alternates = [...html.matchAll(/<link rel="alternate" hreflang="(\w+)" href="([^"]+)">/g)];
    assert.equal(alternates.length, 4);
    for (const [, lang, href] of alternates) {
      assert.ok(href!.startsWith(`${BASE_URL}/${lang}/jobs/`), href);
      assert.doesNotThrow(() => new URL(href!));
    }
    assert.match(html, new RegExp(`<link rel="canonical" href="${BASE_URL}/en/jobs/`));
  });

  test('seniority, years of experience and work style are shown; the country by its name, per language', async () => {
    const { job } = await publishedPage({
      title: 'Data Scientist',
      description: '<p>We build services.</p><p>About the team</p><ul><li>Small</li></ul>',
      seniority: 'Senior',
      yearsExperience: '5+',
      workStyle: 'Async-first',
      location: { city: 'Sydney', country: 'AU', remotePolicy: 'hybrid' },
    });
    const expected = {
      en: ['Seniority: Senior', 'Experience: 5+ years', 'Work style: Async-first', 'Sydney, Australia'],
      es: ['Nivel: Senior', 'Experiencia: 5+ años', 'Sydney, Australia'],
      fr: ['Niveau: Senior', 'Expérience: 5+ ans', 'Sydney, Australie'],
      pt: ['Nível: Senior', 'Experiência: 5+ anos', 'Sydney, Austrália'],
    };
    for (const [lang, pieces] of Object.entries(expected)) {
      const url = linkPath(job.url!).replace('/en/jobs/', `/${lang}/jobs/`);
      const html = (await ctx.app.inject({ method: 'GET', url })).body;
      const text = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
      for (const piece of pieces) assert.ok(text.includes(piece), `${lang}: ${piece} in ${text}`);
      assert.ok(!/Location: [^<]*\bAU\b/.test(text), `${lang}: no bare country code`);
    }
    const html = (await ctx.app.inject({ method: 'GET', url: linkPath(job.url!) })).body;
    const meta = /<meta name="description" content="([^"]*)">/.exec(html)?.[1];
    assert.equal(meta, 'We build services. About the team Small', 'block ends become spaces');
  });
});
