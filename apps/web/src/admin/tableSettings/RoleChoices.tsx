import { useTranslation } from 'react-i18next';
import type { Role } from '../../generated/graphql';

/** The roles a policy may name: viewers never edit nor approve. */
const NAMEABLE: readonly Role[] = ['editor', 'admin'];

interface RoleChoicesProps {
  form: string;
  /** Says whose roles these are, for a screen reader: the table and the setting. */
  legend: string;
  value: readonly Role[];
  onChange: (roles: Role[]) => void;
}

/** A policy's roles as checkboxes (none ticked: the groups decide, or every editor). */
export function RoleChoices({ form, legend, value, onChange }: RoleChoicesProps) {
  const { t } = useTranslation();
  return (
    <fieldset className="role-choices">
      <legend className="visually-hidden">{legend}</legend>
      {NAMEABLE.map((role) => (
        <label key={role} className="checkbox-label">
          <input
            form={form}
            type="checkbox"
            checked={value.includes(role)}
            onChange={(event) =>
              onChange(
                event.target.checked ? [...value, role] : value.filter((chosen) => chosen !== role),
              )
            }
          />
          {t(`roles.${role}`)}
        </label>
      ))}
    </fieldset>
  );
}
