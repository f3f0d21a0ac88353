import { useTranslation } from 'react-i18next';
import type { Role } from '../../generated/graphql';

const ROLES: readonly Role[] = ['viewer', 'editor', 'admin'];

interface RoleSelectProps {
  label: string;
  value: Role;
  disabled?: boolean;
  onChange: (role: Role) => void;
}

/** A choice of the three roles, labelled for screen readers by `label`. */
export function RoleSelect({ label, value, disabled = false, onChange }: RoleSelectProps) {
  const { t } = useTranslation();
  return (
    <select
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as Role)}
    >
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {t(`roles.${role}`)}
        </option>
      ))}
    </select>
  );
}
