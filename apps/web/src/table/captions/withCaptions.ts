import type { ColDef } from 'ag-grid-community';
import { type Caption, captionIn } from './captionIn';

interface CaptionedColumn {
  name: string;
  captions: readonly Caption[];
}

/**
 * Headers in the user's language where the database's comments give a display name (the
 * header shows the technical name beside it), with the description first in the tooltip.
 */
export function withCaptions<TData>(
  defs: readonly ColDef<TData>[],
  columns: readonly CaptionedColumn[],
  language: string,
): ColDef<TData>[] {
  const byName = new Map(columns.map((column) => [column.name, column]));
  return defs.map((def) => {
    const column = byName.get(def.colId ?? '');
    if (!column) return def;
    const { name, description } = captionIn(column.captions, language);
    if (!name && !description) return def;
    const facts = typeof def.headerTooltip === 'string' ? def.headerTooltip : '';
    return {
      ...def,
      headerName: name ?? def.headerName,
      headerTooltip: [description, `${column.name} · ${facts}`].filter(Boolean).join('\n'),
    };
  });
}
