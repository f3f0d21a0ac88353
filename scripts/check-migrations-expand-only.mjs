// During a rolling upgrade the previous release's processes keep serving on the database the
// first new process has just migrated (README, "Upgrading"). They survive only what adds: a table,
// column or function they use that a migration drops or renames breaks them mid-upgrade. This
// fails `pnpm lint` (and so `npm test`) on a migration added since the previous release (releases.json) that
// drops or renames something that release still uses: expand now, contract in the next release.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const IDENTIFIER = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][\w$]*)`;
const QUALIFIED = String.raw`${IDENTIFIER}(?:\s*\.\s*${IDENTIFIER})*`;
/** Words that follow DROP inside ALTER TABLE without naming a column (DROP CONSTRAINT, ...). */
const NOT_A_COLUMN = /^(constraint|default|not|expression|identity)$/i;
/** Where a previous release's code names tables, columns and functions. */
const SOURCE_PATHS = ['prisma/schema.prisma', ':(glob)apps/*/src/**', ':(glob)packages/*/src/**'];
const MIGRATIONS = 'prisma/migrations';

const git = (root, args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/** Where each release is recorded: its version and the commit it ships, newest first. */
const RELEASES = 'releases.json';

const hasCommit = (root, commit) => {
  try {
    execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: root, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

const isAncestor = (root, commit, of) => {
  try {
    git(root, ['merge-base', '--is-ancestor', commit, of]);
    return true;
  } catch {
    return false;
  }
};

/**
 * A clone made without history (`--depth`) lacks the released commits: they are fetched from the
 * clone's origin once, and a clone that still lacks them says so.
 */
function fetchReleasedCommits(root, releases) {
  if (releases.every((release) => hasCommit(root, release.commit))) return;
  try {
    execFileSync('git', ['fetch', '--quiet', '--unshallow', 'origin'], {
      cwd: root,
      stdio: 'ignore',
    });
  } catch {
    // Told just below.
  }
  const missing = releases.find((release) => !hasCommit(root, release.commit));
  if (missing) {
    throw new Error(
      `The clone lacks ${missing.version}'s commit ${missing.commit} (${RELEASES}) and its origin gave no history: clone without --depth to find the previous release.`,
    );
  }
}

/**
 * The previous release, { version, commit }: the newest one in releases.json that HEAD contains,
 * other than one released from HEAD itself (right after recording a release, the one before it).
 * Undefined when there is none. Recorded in the repository rather than read from git tags, which
 * a clone or a push does not always carry.
 */
export function previousRelease(root) {
  const { releases } = JSON.parse(readFileSync(join(root, RELEASES), 'utf8'));
  fetchReleasedCommits(root, releases);
  const head = git(root, ['rev-parse', 'HEAD']);
  return releases.find(
    (release) => release.commit !== head && isAncestor(root, release.commit, head),
  );
}

/** An identifier as Postgres sees it: quoted ones exactly, unquoted ones in lower case. */
function unquoted(identifier) {
  return identifier.startsWith('"')
    ? identifier.slice(1, -1).replaceAll('""', '"')
    : identifier.toLowerCase();
}

/** The last part of a qualified name (`"tablelock"."table_lock"` → `table_lock`). */
function lastName(qualified) {
  const parts = qualified.match(new RegExp(IDENTIFIER, 'g')) ?? [];
  return unquoted(parts.at(-1) ?? qualified);
}

/** SQL with its comments and string literals blanked (line breaks kept, so lines still count). */
function blankedCommentsAndStrings(sql) {
  return sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'/g, (text) =>
    text.startsWith("'") && !text.includes('\n')
      ? `'${' '.repeat(text.length - 2)}'`
      : text.replace(/[^\n]/g, ' '),
  );
}

/** Every drop and rename of a table, column, function, type or enum value in `sql`. */
function contractions(sql) {
  const code = blankedCommentsAndStrings(sql);
  const found = [];
  const at = (index, change, object) => found.push({ index, change, object });
  const each = (pattern, onMatch) => {
    for (const match of code.matchAll(new RegExp(pattern, 'gi'))) onMatch(match);
  };
  each(
    String.raw`\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(${QUALIFIED}(?:\s*,\s*${QUALIFIED})*)`,
    (m) => {
      for (const table of m[1].split(',')) at(m.index, 'DROP TABLE', lastName(table.trim()));
    },
  );
  each(
    String.raw`\bDROP\s+(FUNCTION|PROCEDURE|VIEW|TYPE)\s+(?:IF\s+EXISTS\s+)?(${QUALIFIED})`,
    (m) => at(m.index, `DROP ${m[1].toUpperCase()}`, lastName(m[2])),
  );
  each(
    String.raw`\bALTER\s+(FUNCTION|PROCEDURE)\s+(${QUALIFIED})\s*(?:\([^)]*\))?\s*RENAME\s+TO\b`,
    (m) => at(m.index, `RENAME ${m[1].toUpperCase()}`, lastName(m[2])),
  );
  each(
    String.raw`\bALTER\s+TYPE\s+(${QUALIFIED})\s+RENAME\s+(?:VALUE\s+('(?:[^']|'')*')|ATTRIBUTE\s+(${IDENTIFIER})|TO\b)`,
    (m) => {
      const type = lastName(m[1]);
      // The label itself was blanked with the other strings; read it from the original SQL.
      const label = m[2] && sql.slice(m.index + m[0].length - m[2].length, m.index + m[0].length);
      if (label) at(m.index, 'RENAME VALUE', `${type}.${label.slice(1, -1).replaceAll("''", "'")}`);
      else if (m[3]) at(m.index, 'RENAME ATTRIBUTE', `${type}.${unquoted(m[3])}`);
      else at(m.index, 'RENAME TYPE', type);
    },
  );
  each(
    String.raw`\bALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?(${QUALIFIED})\s*\*?([^;]*)`,
    (m) => {
      const table = lastName(m[1]);
      const actionsAt = m.index + m[0].length - m[2].length;
      for (const action of m[2].matchAll(
        new RegExp(
          String.raw`\b(DROP|RENAME)\s+(?:(COLUMN)\s+)?(?:IF\s+EXISTS\s+)?(${IDENTIFIER})(\s+TO\b)?`,
          'gi',
        ),
      )) {
        const [, verb, column, name, to] = action;
        const index = actionsAt + action.index;
        if (verb.toUpperCase() === 'DROP') {
          if (column || !NOT_A_COLUMN.test(name))
            at(index, 'DROP COLUMN', `${table}.${unquoted(name)}`);
        } else if (!column && /^to$/i.test(name)) {
          at(index, 'RENAME TABLE', table);
        } else if (to && (column || !/^constraint$/i.test(name))) {
          at(index, 'RENAME COLUMN', `${table}.${unquoted(name)}`);
        }
      }
    },
  );
  return found
    .sort((a, b) => a.index - b.index)
    .map(({ index, change, object }) => ({
      line: code.slice(0, index).split('\n').length,
      change,
      object,
    }));
}

/**
 * The parts of a migration that use objects rather than create or drop them: function bodies
 * (dollar-quoted), triggers, views, and calls of functions (column defaults, say).
 */
function usingParts(sql) {
  const code = blankedCommentsAndStrings(sql);
  return [
    ...sql.matchAll(/\$(\w*)\$[\s\S]*?\$\1\$/g),
    ...code.matchAll(/\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:CONSTRAINT\s+)?(?:TRIGGER|VIEW)\b[^;]*/gi),
  ];
}

/** Where the release at commit `rev` names `name` (path:line), in its code and its migrations. */
function usesAt(root, rev, name, change, migrationsAtRelease) {
  const word = new RegExp(String.raw`(^|[^\w$])${escapeRegExp(name)}($|[^\w$])`, 'i');
  let sourceLines = '';
  try {
    sourceLines = git(root, [
      'grep',
      '-n',
      '-i',
      '-w',
      '-F',
      '-e',
      name,
      rev,
      '--',
      ...SOURCE_PATHS,
    ]);
  } catch (error) {
    // git grep exits with 1 when nothing matches.
    if (error.status !== 1) throw error;
  }
  const uses = sourceLines
    .split('\n')
    .filter(Boolean)
    .map((line) =>
      line
        .slice(rev.length + 1)
        .split(':')
        .slice(0, 2)
        .join(':'),
    );
  const isFunction = /FUNCTION|PROCEDURE/.test(change);
  for (const { path, sql } of migrationsAtRelease) {
    const parts = isFunction
      ? calls(sql, name)
      : usingParts(sql).filter((part) => word.test(part[0]));
    for (const part of parts) {
      uses.push(`${path}:${sql.slice(0, part.index).split('\n').length}`);
    }
  }
  return uses;
}

/**
 * Calls of function `name` (a column default, a trigger, another function's body): its name and
 * arguments, where no FUNCTION keyword before it makes it the function's own definition or drop.
 */
function calls(sql, name) {
  const call = new RegExp(String.raw`\b${escapeRegExp(name)}"?\s*\(`, 'gi');
  const named = /\bFUNCTION\s+(?:"?\w+"?\s*\.\s*)?"?$/i;
  return [...sql.matchAll(call)].filter((match) => !named.test(sql.slice(0, match.index)));
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The previous release's migrations, path and SQL. */
function migrationsAt(root, rev) {
  return git(root, ['ls-tree', '--name-only', `${rev}:${MIGRATIONS}`])
    .split('\n')
    .filter(Boolean)
    .map((name) => {
      const path = `${MIGRATIONS}/${name}/migration.sql`;
      return { name, path, sql: git(root, ['show', `${rev}:${path}`]) };
    });
}

/**
 * Each drop or rename, in a migration of `migrationsDir` that the `previous` release does not
 * have, of an object that release uses: { file, line, change, object, uses }.
 */
export function expandOnlyViolations({ root, previous, migrationsDir = join(root, MIGRATIONS) }) {
  const migrationsAtRelease = migrationsAt(root, previous.commit);
  const released = new Set(migrationsAtRelease.map((migration) => migration.name));
  const added = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !released.has(entry.name))
    .map((entry) => entry.name)
    .sort();
  return added.flatMap((name) => {
    const file = join(migrationsDir, name, 'migration.sql');
    return contractions(readFileSync(file, 'utf8')).flatMap(({ line, change, object }) => {
      // A column, attribute or enum value is named by its own name; a table etc. by its name.
      const name = object.includes('.') ? object.slice(object.indexOf('.') + 1) : object;
      const uses = usesAt(root, previous.commit, name, change, migrationsAtRelease);
      return uses.length > 0 ? [{ file, line, change, object, uses }] : [];
    });
  });
}

function main() {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const migrationsDir = resolve(process.argv[2] ?? join(root, MIGRATIONS));
  const previous = previousRelease(root);
  if (!previous) {
    console.log(
      `check-migrations-expand-only: no release before HEAD in ${RELEASES}, nothing to compare.`,
    );
    return;
  }
  const violations = expandOnlyViolations({ root, previous, migrationsDir });
  for (const { file, line, change, object, uses } of violations) {
    const shown =
      uses.slice(0, 3).join(', ') + (uses.length > 3 ? ` and ${uses.length - 3} more` : '');
    console.error(
      `${relative(root, file)}:${line}: ${change} ${object}, which ${previous.version} uses (${shown}). ` +
        `Its processes still run during a rolling upgrade: expand now, contract in the next release ` +
        `(keep ${object} until a release after one that no longer uses it).`,
    );
  }
  if (violations.length > 0) {
    process.exitCode = 1;
    return;
  }
  console.log(
    `check-migrations-expand-only: the migrations since ${previous.version} drop or rename nothing it uses.`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
