import {
  CellStyleModule,
  ColumnApiModule,
  CustomEditorModule,
  DateFilterModule,
  GridStateModule,
  InfiniteRowModelModule,
  LocaleModule,
  ModuleRegistry,
  NumberFilterModule,
  PinnedRowModule,
  RenderApiModule,
  RowApiModule,
  RowSelectionModule,
  ScrollApiModule,
  TextFilterModule,
  TooltipModule,
  themeQuartz,
  ValidationModule,
} from 'ag-grid-community';

// Only the grid features the table page uses; AG Grid leaves everything else out of the bundle.
ModuleRegistry.registerModules([
  InfiniteRowModelModule,
  TextFilterModule,
  NumberFilterModule,
  DateFilterModule,
  CustomEditorModule,
  CellStyleModule,
  PinnedRowModule,
  RowSelectionModule,
  TooltipModule,
  LocaleModule,
  RenderApiModule,
  RowApiModule,
  ScrollApiModule,
  // The clipboard and fill address the columns as displayed (table/clipboard/gridCells.ts);
  // views that stay read and set the column state, and start with a saved view's filter.
  ColumnApiModule,
  GridStateModule,
  // Explains misconfigurations in the console during development; not shipped.
  ...(import.meta.env.DEV ? [ValidationModule] : []),
]);

export const gridTheme = themeQuartz.withParams({
  fontFamily: 'inherit',
  fontSize: 13,
  headerFontSize: 13,
  headerFontWeight: 600,
  spacing: 6,
  rowHeight: 34,
  headerHeight: 38,
  accentColor: '#2563eb',
  borderColor: '#e2e8f0',
  headerBackgroundColor: '#f8fafc',
  oddRowBackgroundColor: '#fcfdfe',
  browserColorScheme: 'light',
  wrapperBorderRadius: 8,
});
