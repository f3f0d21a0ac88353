interface TimeRangeFieldsProps {
  /** Times as `datetime-local` gives them; empty for no bound. */
  from: string;
  to: string;
  labels: { from: string; to: string };
  onChange: (change: { from: string } | { to: string }) => void;
}

/** The from and to of a history filter: each bound keeps the other from passing it. */
export function TimeRangeFields({ from, to, labels, onChange }: TimeRangeFieldsProps) {
  return (
    <>
      <label className="inline-field">
        <span>{labels.from}</span>
        <input
          type="datetime-local"
          value={from}
          max={to || undefined}
          onChange={(event) => onChange({ from: event.target.value })}
        />
      </label>
      <label className="inline-field">
        <span>{labels.to}</span>
        <input
          type="datetime-local"
          value={to}
          min={from || undefined}
          onChange={(event) => onChange({ to: event.target.value })}
        />
      </label>
    </>
  );
}
