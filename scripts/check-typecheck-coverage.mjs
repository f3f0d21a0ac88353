// `pnpm typecheck` is `tsgo -b` on the root tsconfig.json: it checks the projects that file
// references, and theirs, and nothing else. A new package, test folder or config file that no
// project includes would go unchecked without a word: this fails `pnpm lint` on any TypeScript
// file in git that no referenced project includes.
import { execFileSync } from 'node:child_process';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TYPESCRIPT_FILE = /\.(ts|tsx|mts|cts)$/;
// Declaration files describe JavaScript; skipLibCheck leaves them unchecked in any project.
const DECLARATION_FILE = /\.d\.(ts|mts|cts)$/;

function parsedProject(configPath) {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`${configPath} could not be read.`);
  return parsed;
}

/** Every file of the projects reached from the root tsconfig.json through `references`. */
function checkedFiles() {
  const files = new Set();
  const seen = new Set();
  const pending = [ts.resolveProjectReferencePath({ path: root })];
  while (pending.length > 0) {
    const configPath = pending.pop();
    if (seen.has(configPath)) continue;
    seen.add(configPath);
    const project = parsedProject(configPath);
    for (const file of project.fileNames) files.add(relative(root, file));
    for (const reference of project.projectReferences ?? []) {
      pending.push(ts.resolveProjectReferencePath(reference));
    }
  }
  return files;
}

const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((file) => TYPESCRIPT_FILE.test(file) && !DECLARATION_FILE.test(file));
const checked = checkedFiles();
const unchecked = tracked.filter((file) => !checked.has(file));

if (unchecked.length > 0) {
  console.error(
    `check-typecheck-coverage: no project of tsconfig.json's references includes:\n${unchecked
      .map((file) => `  ${file}`)
      .join('\n')}\nAdd the file's folder to a project (its tsconfig.json "include") and that ` +
      'project to the references of the root tsconfig.json.',
  );
  process.exit(1);
}
console.log(
  `check-typecheck-coverage: ${tracked.length} TypeScript files, each in a checked project.`,
);
