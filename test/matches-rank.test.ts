import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { candidateProfile, roleProfile } from '../src/domain/matches/profile.ts';
import { rankCandidates, scoreCandidate } from '../src/domain/matches/rank.ts';
import { skillKey } from '../src/domain/matches/skills.ts';
import { titleConcepts } from '../src/domain/matches/titles.ts';

const now = new Date('2026-11-24T00:00:00Z');

describe('matches: skills, titles, profiles and ranking (pure)', () => {
  it('folds spelling variants and languages to one skill key', () => {
    assert.equal(skillKey('Postgres'), skillKey('PostgreSQL'));
    assert.equal(skillKey('JS'), skillKey('JavaScript'));
    assert.equal(skillKey('React.js'), skillKey('React'));
    assert.equal(skillKey('ReactJS'), 'react');
    assert.equal(skillKey('K8s'), 'kubernetes');
    assert.equal(skillKey('Aprendizaje automático'), skillKey('Machine Learning'));
    assert.notEqual(skillKey('Java'), skillKey('JavaScript'));
  });

  it('reads titles as concepts across languages', () => {
    assert.deepEqual(titleConcepts('Desarrollador Backend Senior').sort(), ['backend', 'developer']);
    assert.deepEqual(titleConcepts('Senior Backend Engineer').sort(), ['backend', 'developer']);
    assert.deepEqual(titleConcepts('Infirmière'), ['nurse']);
  });

  const cv = {
    basics: {
      label: 'Senior Backend Engineer',
      location: { city: 'Melbourne', countryCode: 'AU' },
      profiles: [],
    },
    work: [
      {
        position: 'Senior Backend Engineer',
        startDate: '2020-01',
        isCurrent: true,
        highlights: ['APIs in Golang'],
      },
      { position: 'Developer', startDate: '2016-01', endDate: '2019-12', isCurrent: false, highlights: [] },
    ],
    skills: [{ name: 'Postgres' }, { name: 'K8s' }],
    languages: [{ language: 'English', x: { code: 'en' } }],
  };
  const role = roleProfile({
    title: 'Backend Engineer',
    description: '<p>APIs on PostgreSQL</p>',
    skills: [
      { name: 'Go', level: 'required' },
      { name: 'PostgreSQL', level: 'required' },
      { name: 'Kubernetes', level: 'required' },
      { name: 'Rust', level: 'required' },
      { name: 'Kafka', level: 'nice_to_have' },
    ],
    seniority: 'Senior',
    yearsExperience: '5+',
    location: { city: 'Melbourne', country: 'Australia', remotePolicy: 'hybrid' },
  });

  it('profiles a virtual CV: skills from the list and the text, years, seniority, place', () => {
    const profile = candidateProfile(cv, now);
    assert.deepEqual(profile.skills.sort(), ['go', 'kubernetes', 'postgresql']);
    assert.equal(profile.seniority, 3);
    assert.equal(Math.round(profile.yearsTotal), 11);
    assert.equal(profile.city, 'melbourne');
    assert.equal(profile.country, 'AU');
    assert.deepEqual(candidateProfile('not a cv', now).skills, []);
  });

  it('scores between 0 and 1 with the reasons a recruiter reads', () => {
    const scored = scoreCandidate(role, candidateProfile(cv, now), new Map());
    assert.ok(scored.score > 0.7 && scored.score <= 1);
    for (const reason of [
      'required skill: PostgreSQL',
      'required skill: Go',
      'title: Backend Engineer',
      'location: Melbourne',
      'missing required skill: Rust',
      'seniority: senior',
    ]) {
      assert.ok(scored.reasons.includes(reason), `${reason} in ${scored.reasons.join('; ')}`);
    }
  });

  it('ranks best first and leaves out people under the relevance floor', () => {
    const chef = candidateProfile(
      {
        basics: { label: 'Chef de cuisine', location: { city: 'Lyon', countryCode: 'FR' } },
        work: [],
        skills: [{ name: 'HACCP' }],
      },
      now,
    );
    const junior = candidateProfile(
      {
        basics: { label: 'Junior Backend Developer', location: { city: 'Sydney', countryCode: 'AU' } },
        work: [],
        skills: [{ name: 'Go' }],
      },
      now,
    );
    const ranked = rankCandidates(role, [
      { id: 'c', profile: chef },
      { id: 'j', profile: junior },
      { id: 's', profile: candidateProfile(cv, now) },
    ]);
    assert.deepEqual(
      ranked.map((r) => r.id),
      ['s', 'j'],
    );
  });
});
