import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { CHANGELOG_FILE, contractChanges, readJson, RELEASED_FILE, unmentionedChanges, unreleasedSection } from './contract-diff.ts';

/**
 * Releases the partner-visible contract (docs/versioning.md): the changelog's Unreleased
 * section becomes `## <version> — <date>`, docs/openapi.json becomes the released baseline
 * (docs/openapi.released.json) the next changes are checked against, and an annotated tag
 * `contract-v<version>` marks the commit to make. Usage: npm run contract:release -- 1.1.0
 */
const version = process.argv[2] ?? '';
if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error('usage: npm run contract:release -- <major.minor.patch>');
const current = new URL('../docs/openapi.json', import.meta.url);
const changelog = readFileSync(CHANGELOG_FILE, 'utf8');
if (changelog.includes(`\n## ${version} `)) throw new Error(`CHANGELOG.md already has ${version}`);
const missing = unmentionedChanges(contractChanges(readJson(RELEASED_FILE), readJson(current)), changelog);
if (missing.length) throw new Error(`CHANGELOG.md's Unreleased section does not name: ${missing.map((c) => c.key).join(', ')}`);
if (!unreleasedSection(changelog).trim()) throw new Error('the Unreleased section is empty: nothing to release');

const today = new Date().toISOString().slice(0, 10);
writeFileSync(CHANGELOG_FILE, changelog.replace(/^## Unreleased[^\n]*\n/m, `## Unreleased\n\n## ${version} — ${today}\n`));
copyFileSync(current, RELEASED_FILE);
console.log(`CHANGELOG.md: Unreleased is now ${version} (${today}); docs/openapi.released.json is the new baseline.`);
execFileSync('git', ['add', 'CHANGELOG.md', 'docs/openapi.released.json'], { stdio: 'inherit' });
execFileSync('git', ['commit', '-m', `Contract ${version}`], { stdio: 'inherit' });
execFileSync('git', ['tag', '-a', `contract-v${version}`, '-m', `Partner-visible contract ${version}`], { stdio: 'inherit' });
console.log(`Committed and tagged contract-v${version}; push the tag with the commit.`);
