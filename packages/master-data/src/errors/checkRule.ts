/** A CHECK constraint's rule: a comparison of one column with constants, or any other rule. */
export type CheckRule =
  | { column: string; comparison: string; bound: string; upperBound?: string }
  | { rule: string };

const LITERAL = String.raw`-?\d+(?:\.\d+)?|'(?:[^']|'')*'`;
const IDENTIFIER = String.raw`[a-z_][a-z0-9_$]*|"(?:[^"]|"")+"`;
const COMPARISON = new RegExp(`^(${IDENTIFIER}) (>=|<=|<>|>|<|=) (${LITERAL})$`);
const BETWEEN = new RegExp(
  `^\\((${IDENTIFIER}) >= (${LITERAL})\\) AND \\((${IDENTIFIER}) <= (${LITERAL})\\)$`,
);

const unquoteIdentifier = (name: string) =>
  name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name;
const unquoteLiteral = (text: string) =>
  text.startsWith("'") ? text.slice(1, -1).replaceAll("''", "'") : text;

/** Whether the whole text is one parenthesised group, e.g. `(a) AND (b)` is not. */
function isWrapped(text: string): boolean {
  if (!text.startsWith('(') || !text.endsWith(')')) return false;
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "'") quoted = !quoted;
    if (quoted) continue;
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (depth === 0 && i < text.length - 1) return false;
  }
  return true;
}

function unwrap(text: string): string {
  let inner = text.trim();
  while (isWrapped(inner)) inner = inner.slice(1, -1).trim();
  return inner;
}

/**
 * Reads `pg_get_constraintdef`'s text of a CHECK (`CHECK ((unit_price >= (0)::numeric))`).
 * Casts Postgres adds to constants are dropped; BETWEEN comes back as the two comparisons
 * Postgres rewrote it into.
 */
export function readCheckRule(definition: string): CheckRule {
  const body = unwrap(
    definition
      .replace(/^CHECK\s*/, '')
      .replace(/\s+NOT VALID$/, '')
      .replace(/::[a-z][a-z ]*(?:\(\d+(?:,\d+)?\))?(?:\[\])?/g, '')
      .replace(new RegExp(`\\((${LITERAL})\\)`, 'g'), '$1'),
  );
  const comparison = COMPARISON.exec(body);
  if (comparison) {
    const [, column = '', operator = '', bound = ''] = comparison;
    return {
      column: unquoteIdentifier(column),
      comparison: operator,
      bound: unquoteLiteral(bound),
    };
  }
  const between = BETWEEN.exec(body);
  if (between && between[1] === between[3]) {
    const [, column = '', lower = '', , upper = ''] = between;
    return {
      column: unquoteIdentifier(column),
      comparison: 'BETWEEN',
      bound: unquoteLiteral(lower),
      upperBound: unquoteLiteral(upper),
    };
  }
  return { rule: body };
}

const WORDS: Record<string, string> = {
  '>=': 'at least',
  '>': 'more than',
  '<=': 'at most',
  '<': 'less than',
  '=': 'exactly',
  '<>': 'other than',
};

/** The rule as an English sentence: `unit_price must be at least 0.` */
export function checkRuleSentence(rule: CheckRule): string {
  if ('rule' in rule) return `The row breaks the rule ${rule.rule}.`;
  if (rule.comparison === 'BETWEEN') {
    return `${rule.column} must be between ${rule.bound} and ${rule.upperBound}.`;
  }
  return `${rule.column} must be ${WORDS[rule.comparison] ?? rule.comparison} ${rule.bound}.`;
}
