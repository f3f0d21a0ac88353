import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { eventTypeLabel } from './eventTypeLabel';
import { webhookEventTypesOptions } from './webhookQueries';

interface EventTypeChoiceProps {
  chosen: readonly string[];
  onChange: (chosen: string[]) => void;
}

/** The event types an endpoint gets, one checkbox each; none checked means all of them. */
export function EventTypeChoice({ chosen, onChange }: EventTypeChoiceProps) {
  const { t } = useTranslation();
  const types = useQuery(webhookEventTypesOptions).data ?? [];
  const toggle = (type: string, checked: boolean) =>
    // Kept in the API's order, whatever order they were checked in.
    onChange(
      types.filter((candidate) => (candidate === type ? checked : chosen.includes(candidate))),
    );
  return (
    <fieldset className="event-type-choice">
      <legend>{t('webhookEvents.legend')}</legend>
      <p className="muted">{t('webhookEvents.noneIsAll')}</p>
      <div className="event-type-options">
        {types.map((type) => (
          <label key={type} className="checkbox-field" title={type}>
            <input
              type="checkbox"
              checked={chosen.includes(type)}
              onChange={(event) => toggle(type, event.target.checked)}
            />
            <span>{eventTypeLabel(type, t)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
