import { Link } from 'react-router';

/** Table names as chips that open each table. */
export function TableLinks({ names }: { names: readonly string[] }) {
  return (
    <span className="chip-list">
      {names.map((name) => (
        <Link key={name} to={`/tables/${encodeURIComponent(name)}`} className="chip">
          {name}
        </Link>
      ))}
    </span>
  );
}
