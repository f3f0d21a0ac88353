import type { ColDef, IFilterOptionDef } from 'ag-grid-community';
import type { TFunction } from 'i18next';
import type { Formatters } from '../../i18n/useFormatters';
import { saveErrorText } from '../../ui/saveErrorText';
import { scheduledCellText } from '../asOf/scheduledCellText';
import type { ScheduledMarks } from '../asOf/scheduledMarks';
import type { GridRow } from '../changes/gridRow';
import type { PendingChanges } from '../changes/PendingChanges';
import type { ValidationIssue } from '../changes/validateValue';
import { type ReferenceHelp, referenceColumn } from '../reference/referenceColumn';
import type { GridScope } from '../scope/gridScope';
import { holderColumn } from '../scope/holderColumn';
import { ScopeValueEditor, type ScopeValueEditorParams } from '../scope/ScopeValueEditor';
import type { TypeAhead } from '../typeAhead/TypeAhead';
import { CellEditor, type CellEditorParams } from './CellEditor';
import { ColumnHeader } from './ColumnHeader';
import { formatCellValue } from './formatCellValue';
import type { BOOLEAN_FILTER_OPTIONS } from './gridQueryToRowQuery';
import { RowStatusCell, type RowStatusCellParams } from './RowStatusCell';
import type { TableColumn } from './useTableColumns';

const STATUS_COLUMN_ID = '__status';

interface ColumnDefsContext {
  pending: PendingChanges;
  /** Whether cells may be edited now (the user holds the lock). Read at each edit attempt. */
  canEdit: () => boolean;
  showStatus: boolean;
  format: Formatters;
  t: TFunction;
  validationMessage: (issue: ValidationIssue) => string;
  references: ReferenceHelp;
  /** Keys typed while an editor opens, for every editor (see TypeAhead). */
  typeAhead: TypeAhead;
  /** The table's row scopes, when it has a row-lock column. */
  scope: GridScope | null;
  /** Show who holds each row (someone holds a scope of the table). */
  showHolders: boolean;
  /** A phone's screen: the status column is a thin bar (phone.css). */
  narrow: boolean;
  /** Read at a time ahead: the cells scheduled requests change, marked. */
  scheduled: ScheduledMarks | null;
}

const WIDTH_BY_KIND: Record<TableColumn['kind'], number> = {
  text: 220,
  integer: 120,
  decimal: 140,
  boolean: 110,
  date: 150,
  timestamp: 190,
  period: 250,
  other: 180,
};

// Only what the API can filter on; one condition per column (the API ANDs the columns).
const TEXT_FILTER = ['contains', 'equals', 'notEqual', 'startsWith', 'blank', 'notBlank'];
const NUMBER_FILTER = [
  'equals',
  'notEqual',
  'lessThan',
  'lessThanOrEqual',
  'greaterThan',
  'greaterThanOrEqual',
  'inRange',
  'blank',
  'notBlank',
];
const DATE_FILTER = [
  'equals',
  'notEqual',
  'lessThan',
  'greaterThan',
  'inRange',
  'blank',
  'notBlank',
];

function filterFor(column: TableColumn, t: TFunction): Pick<ColDef, 'filter' | 'filterParams'> {
  const common = { maxNumConditions: 1, debounceMs: 400, inRangeInclusive: true };
  // "Blank" finds nothing in a NOT NULL column: offer it only where NULL can occur.
  const nullOptions = column.nullable ? ['blank', 'notBlank'] : [];
  const withoutNull = (options: string[]) =>
    column.nullable
      ? options
      : options.filter((option) => option !== 'blank' && option !== 'notBlank');
  switch (column.kind) {
    case 'integer':
    case 'decimal':
      return {
        filter: 'agNumberColumnFilter',
        filterParams: { ...common, filterOptions: withoutNull(NUMBER_FILTER) },
      };
    case 'date':
    case 'timestamp':
      return {
        filter: 'agDateColumnFilter',
        filterParams: { ...common, filterOptions: withoutNull(DATE_FILTER) },
      };
    case 'boolean': {
      const option = (
        displayKey: keyof typeof BOOLEAN_FILTER_OPTIONS,
        label: string,
      ): IFilterOptionDef => ({
        displayKey,
        displayName: label,
        predicate: () => true,
        numberOfInputs: 0,
      });
      return {
        filter: 'agTextColumnFilter',
        filterParams: {
          ...common,
          filterOptions: [
            option('isTrue', t('grid.yes')),
            option('isFalse', t('grid.no')),
            ...nullOptions,
          ],
        },
      };
    }
    default:
      return {
        filter: 'agTextColumnFilter',
        filterParams: { ...common, filterOptions: withoutNull(TEXT_FILTER) },
      };
  }
}

/** Wide enough for the header (name, PK/FK tags, sort and filter icons) and typical values. */
function columnWidth(column: TableColumn): number {
  const tags = (column.primaryKey ? 1 : 0) + (column.references ? 1 : 0);
  const header = 8 * column.name.length + 28 * tags + 56;
  return Math.max(WIDTH_BY_KIND[column.kind], Math.min(header, 320));
}

function headerTooltip(column: TableColumn, t: TFunction): string {
  const facts = [column.dataType];
  if (column.primaryKey) facts.push(t('grid.primaryKey'));
  if (!column.nullable)
    facts.push(column.hasDefault ? t('grid.requiredWithDefault') : t('grid.required'));
  if (column.maxLength != null) facts.push(t('grid.maxLength', { max: column.maxLength }));
  if (column.references) facts.push(t('grid.references', { table: column.references }));
  return facts.join(' · ');
}

/** The grid's columns: a row status column, then one per table column, typed by its kind. */
export function buildColumnDefs(
  columns: readonly TableColumn[],
  context: ColumnDefsContext,
): ColDef<GridRow>[] {
  const { pending, canEdit, format, t, validationMessage } = context;
  const stateIs = (state: string) => (params: { data?: GridRow }) =>
    params.data !== undefined && pending.stateOf(params.data.id) === state;

  const statusColumn: ColDef<GridRow> = {
    colId: STATUS_COLUMN_ID,
    headerName: t('grid.changes'),
    pinned: 'left',
    width: context.narrow ? 8 : 100,
    minWidth: context.narrow ? 8 : undefined,
    resizable: !context.narrow,
    cellClass: 'row-status-cell',
    hide: !context.showStatus,
    sortable: false,
    filter: false,
    editable: false,
    cellRenderer: RowStatusCell,
    cellRendererParams: { pending } satisfies RowStatusCellParams,
  };

  const { scope } = context;
  const rowInScope = (data: GridRow) => scope === null || scope.rowInScope(data);

  const dataColumns = columns.map((column): ColDef<GridRow> => {
    const issueOf = (data: GridRow | undefined) =>
      data ? pending.cellIssue(data.id, column.name) : null;
    const saveErrorOf = (data: GridRow | undefined) =>
      data
        ? pending.saveErrorsFor(data.id).find((error) => error.column === column.name)
        : undefined;
    return {
      colId: column.name,
      headerName: column.name,
      headerTooltip: headerTooltip(column, t),
      headerComponentParams: {
        innerHeaderComponent: ColumnHeader,
        innerHeaderComponentParams: { tableColumn: column },
      },
      width: columnWidth(column),
      type: column.kind === 'integer' || column.kind === 'decimal' ? 'rightAligned' : undefined,
      valueGetter: ({ data }) => data?.values[column.name] ?? null,
      valueSetter: ({ data, newValue }) => {
        pending.setValue(data, column.name, (newValue as string | null | undefined) ?? null);
        return true;
      },
      valueFormatter: ({ value, data }) => {
        // A row still loading has no data yet: show nothing rather than a row of NULLs.
        if (!data) return '';
        if (value === null || value === undefined) {
          if (data && pending.isNew(data.id)) {
            if (column.hasDefault) return t('grid.defaultValue');
            if (!column.nullable) return t('grid.requiredValue');
          }
          return '—';
        }
        // A value that cannot be saved is shown as typed, never tidied into something valid.
        if (issueOf(data)) return value as string;
        return formatCellValue(column, value as string, format, t);
      },
      editable: ({ data }) =>
        data !== undefined &&
        canEdit() &&
        rowInScope(data) &&
        pending.stateOf(data.id) !== 'deleted' &&
        (!column.primaryKey || pending.isNew(data.id)),
      cellEditor: CellEditor,
      cellEditorParams: {
        tableColumn: column,
        pending,
        typeAhead: context.typeAhead,
      } satisfies CellEditorParams,
      // The select element needs the arrow keys for itself while its cell is being edited.
      suppressKeyboardEvent:
        column.kind === 'boolean'
          ? ({ editing, event }) =>
              editing && (event.key === 'ArrowUp' || event.key === 'ArrowDown')
          : undefined,
      ...filterFor(column, t),
      tooltipValueGetter: ({ data }) => {
        const issue = issueOf(data);
        if (issue) return validationMessage(issue);
        const saveError = saveErrorOf(data);
        if (saveError) return saveErrorText(saveError, t);
        const changes = data && context.scheduled?.of(data.id, column.name);
        return changes?.length ? scheduledCellText(changes, context.format, t) : undefined;
      },
      cellClassRules: {
        'cell-null': ({ value, data }) =>
          data !== undefined && (value === null || value === undefined),
        'cell-changed': ({ data }) => data !== undefined && pending.isChanged(data.id, column.name),
        'cell-invalid': ({ data }) => issueOf(data) !== null,
        'cell-error': ({ data }) => saveErrorOf(data) !== undefined,
        'row-new': stateIs('new'),
        // Inside a scope, the rows of others (and of nobody) are there to be seen, not edited.
        'cell-out-of-scope': ({ data }) => data !== undefined && canEdit() && !rowInScope(data),
        'row-deleted': stateIs('deleted'),
        'cell-scheduled': ({ data }) =>
          data !== undefined && (context.scheduled?.of(data.id, column.name).length ?? 0) > 0,
      },
      ...referenceColumn(column, pending, context.typeAhead, context.references),
      ...(scope?.column === column.name ? scopeValueColumn(scope, context) : {}),
    };
  });
  const holders = scope
    ? [holderColumn(scope.holderOf, !context.showHolders, t)]
    : ([] as ColDef<GridRow>[]);
  return [statusColumn, ...holders, ...dataColumns];
}

/** Inside a scope, the row-lock column takes only the scope's values: a choice among them. */
function scopeValueColumn(scope: GridScope, context: ColumnDefsContext): Partial<ColDef<GridRow>> {
  return {
    cellEditorSelector: () => {
      const choices = scope.choices();
      if (!choices) return undefined;
      return {
        component: ScopeValueEditor,
        popup: false,
        params: {
          column: scope.column,
          choices,
          labels: context.references.labels,
          typeAhead: context.typeAhead,
        } satisfies ScopeValueEditorParams,
      };
    },
  };
}
