// The docs name files so that a newcomer can open them. When code moves, a name left behind
// sends them nowhere: this fails `pnpm lint` on any file named in README.md, CONTRIBUTING.md or
// docs/ (in backticks or as a relative link) that the repository does not hold.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SKIPPED_FOLDERS = new Set([
  'node_modules',
  '.git',
  'dist',
  'generated',
  'test-results',
  '.data',
]);
const TOP_FOLDERS = [
  'apps/',
  'packages/',
  'prisma/',
  'e2e/',
  'bench/',
  'scripts/',
  'docs/',
  '.ci/',
];
// What builds and runs produce: not in a clone until then.
const BUILD_OUTPUTS = /(^|\/)(dist|test-results|results)(\/|$)/;
const FILE_NAME = /^[\w./-]+\.(ts|tsx|mts|mjs|cjs|js|sql|graphql|prisma|json|md)$/;

function filesUnder(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) {
      return SKIPPED_FOLDERS.has(entry.name) ? [] : filesUnder(join(folder, entry.name));
    }
    return [relative(root, join(folder, entry.name))];
  });
}

const repoFiles = filesUnder(root);
const repoFolders = new Set(repoFiles.flatMap((file) => ancestorsOf(file)));

function ancestorsOf(file) {
  const parts = file.split('/').slice(0, -1);
  return parts.map((_, index) => `${parts.slice(0, index + 1).join('/')}/`);
}

function exists(path) {
  try {
    statSync(join(root, path));
    return true;
  } catch {
    return false;
  }
}

/** A path from the repository's root must exist; a shorter one must end some file's path. */
function isKnown(name) {
  const path = name.replace(/^\.\//, '').replace(/:\d+$/, '');
  if (TOP_FOLDERS.some((top) => path.startsWith(top))) {
    return path.endsWith('/') ? repoFolders.has(path) : exists(path);
  }
  if (path.endsWith('/')) return [...repoFolders].some((folder) => folder.endsWith(`/${path}`));
  return repoFiles.some((file) => file === path || file.endsWith(`/${path}`));
}

function namedFiles(text) {
  const inBackticks = [...text.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]);
  return inBackticks.filter(
    (name) =>
      !name.includes('*') &&
      !name.includes('<') &&
      !name.startsWith('@') &&
      !name.includes('://') &&
      !BUILD_OUTPUTS.test(name) &&
      (FILE_NAME.test(name) || TOP_FOLDERS.some((top) => name.startsWith(top))),
  );
}

function linkedFiles(text, doc) {
  return [...text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => relative(root, resolve(dirname(join(root, doc)), target)));
}

const docs = [
  'README.md',
  'CONTRIBUTING.md',
  ...repoFiles.filter((file) => file.startsWith('docs/')),
]
  .concat(repoFiles.filter((file) => /^(apps|packages|e2e|bench)\/[^/]+\/README\.md$/.test(file)))
  .filter((file) => file.endsWith('.md'));

const missing = docs.flatMap((doc) => {
  const text = readFileSync(join(root, doc), 'utf8');
  const named = namedFiles(text).filter((name) => !isKnown(name));
  const linked = linkedFiles(text, doc).filter((path) => !exists(path));
  return [...named, ...linked].map((name) => `${doc}: ${name}`);
});

if (missing.length > 0) {
  console.error(
    `The docs name files that do not exist (moved or renamed?):\n${missing.join('\n')}`,
  );
  process.exit(1);
}
console.log(`check-doc-paths: ${docs.length} documents, every named file exists.`);
