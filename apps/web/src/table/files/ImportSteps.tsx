import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GraphqlRequestError } from '../../api/GraphqlRequestError';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { ImportOutcome } from '../../generated/graphql';
import { useFormatters } from '../../i18n/useFormatters';
import { TransferProgressPanel } from '../../transfer/TransferProgressPanel';
import type { TransferProgress } from '../../transfer/transferProgress';
import { describeError } from '../../ui/describeError';
import { Pager } from '../../ui/Pager';
import { useTableColumns } from '../grid/useTableColumns';
import { ColumnMappingStep } from './ColumnMappingStep';
import {
  type ColumnMapping,
  guessMapping,
  type HeaderMismatch,
  headerMismatchOf,
} from './columnMappingOf';
import { type FileSamples, fileSamples } from './fileSamples';
import { ImportRowList } from './ImportRowList';
import {
  applyImportMutation,
  type DryRun,
  errorsFileUrl,
  MAX_IMPORT_BYTES,
  uploadDryRun,
} from './importOperations';
import { importRowsOptions } from './importRowsOptions';
import { rejectedRowsOf } from './rejectedRowsOf';
import { type ScheduledImport, ScheduleImportStep } from './ScheduleImportStep';

const PAGE_SIZE = 50;

/** Which rows the list shows: unchanged rows are collapsed unless asked for. */
const SHOWN = {
  changes: ['create', 'update', 'error'],
  errors: ['error'],
  unchanged: ['unchanged'],
  all: [],
} as const satisfies Record<string, readonly ImportOutcome[]>;
type Shown = keyof typeof SHOWN;

export interface ImportStepsProps {
  table: string;
  /** The fencing token of the lock being held; null while not editing. */
  token: string | null;
  /** Unsaved edits in the grid: an import waits until they are saved or discarded. */
  unsaved: number;
  onClose: () => void;
  onApplied: (written: { create: number; update: number }) => void;
  /** The table's policy needs approval: a scheduled import waits for it first. */
  needsApproval: boolean;
  /** "Apply on…" made the dry run a change request. */
  onScheduled: (request: ScheduledImport, keepEditing: boolean) => void;
}

/** The dialog's content: choose a file, read its dry run page by page, apply it. */
export function ImportSteps(props: ImportStepsProps) {
  const { table, token, unsaved, onClose, onApplied } = props;
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const fileInput = useId();
  const [file, setFile] = useState<File | null>(null);
  const [dryRun, setDryRun] = useState<DryRun | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<TransferProgress | null>(null);
  const [problem, setProblem] = useState<{
    text: string;
    changedRows: string[];
    rejectedRows?: string[];
  } | null>(null);
  const [shown, setShown] = useState<Shown>('changes');
  const [page, setPage] = useState(1);
  const [mismatch, setMismatch] = useState<HeaderMismatch | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping | null>(null);
  const [samples, setSamples] = useState<FileSamples>({});
  const [scheduling, setScheduling] = useState(false);
  const tableColumns = useTableColumns(table).data?.columns ?? [];
  // The dry run under way: Cancel (or the dialog closed) stops it, on the server too.
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);
  const [partlyApplied, setPartlyApplied] = useState<{
    create: number;
    update: number;
    error: number;
  } | null>(null);

  const rows = useQuery({
    ...importRowsOptions(dryRun, {
      outcomes: SHOWN[shown],
      offset: (page - 1) * PAGE_SIZE,
      limit: PAGE_SIZE,
    }),
  });

  const runDryRun = async () => {
    if (!file || !token) return;
    if (file.size > MAX_IMPORT_BYTES) {
      setProblem({ text: t('import.tooLarge'), changedRows: [] });
      return;
    }
    setBusy(true);
    setProblem(null);
    const upload = { phase: 'upload', file: file.name, total: file.size } as const;
    setProgress({ ...upload, loaded: 0, since: Date.now() });
    const controller = new AbortController();
    running.current = controller;
    try {
      const report = await uploadDryRun(
        table,
        token,
        file,
        {
          onProgress: (loaded, total) =>
            setProgress((current) =>
              current?.phase === 'upload' ? { ...current, loaded, total } : current,
            ),
          onSent: () => setProgress({ phase: 'checking', since: Date.now() }),
        },
        mapping ?? undefined,
        controller.signal,
      );
      setDryRun(report);
      setShown(report.counts.error > 0 ? 'errors' : 'changes');
      setPage(1);
    } catch (error) {
      if (controller.signal.aborted) return;
      const headerMismatch = mapping ? undefined : headerMismatchOf(error);
      if (headerMismatch) {
        setSamples(await fileSamples(file));
        setMismatch(headerMismatch);
        setMapping(guessMapping(headerMismatch, tableColumns));
      } else setProblem({ text: describeError(error, t), changedRows: [] });
    } finally {
      running.current = null;
      setBusy(false);
      setProgress(null);
    }
  };

  const apply = async (skipRowsWithErrors = false) => {
    if (!dryRun || !token) return;
    setBusy(true);
    setProblem(null);
    setProgress({ phase: 'writing', since: Date.now() });
    try {
      const { applyImport } = await graphqlRequest(applyImportMutation, {
        id: dryRun.id,
        token,
        skipRowsWithErrors,
      });
      // The rows left out stay as the dry run: the dialog stays open to offer them.
      if (applyImport.counts.error > 0) {
        setPartlyApplied(applyImport.counts);
        setBusy(false);
        setProgress(null);
      } else onApplied(applyImport.counts);
    } catch (error) {
      const rejectedRows = rejectedRowsOf(error, t);
      setProblem({
        text: rejectedRows.length > 0 ? t('import.rejected') : describeError(error, t),
        changedRows: changedRowsOf(error, t),
        rejectedRows,
      });
      setBusy(false);
      setProgress(null);
    }
  };

  if (unsaved > 0) {
    return (
      <>
        <p role="alert">{t('import.unsavedFirst', { count: unsaved })}</p>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            {t('import.close')}
          </button>
        </div>
      </>
    );
  }

  const counts = dryRun?.counts;
  const writes = counts ? counts.create + counts.update : 0;
  if (dryRun && token && scheduling) {
    return (
      <ScheduleImportStep
        table={table}
        token={token}
        dryRun={dryRun}
        writes={writes}
        needsApproval={props.needsApproval}
        onCancel={() => setScheduling(false)}
        onScheduled={props.onScheduled}
      />
    );
  }
  const writable =
    counts !== undefined && counts.error === 0 && writes > 0 && !problem?.changedRows.length;
  if (dryRun && partlyApplied) {
    return (
      <>
        <p className="banner banner-info" role="status">
          {t('import.restLeft', partlyApplied)}
        </p>
        <div className="dialog-actions">
          <a className="button" href={errorsFileUrl(dryRun, i18n.language)} download>
            {t('import.downloadErrors')}
          </a>
          <button type="button" className="button primary" onClick={() => onApplied(partlyApplied)}>
            {t('import.close')}
          </button>
        </div>
      </>
    );
  }
  return (
    <>
      <p>{t('import.explain')}</p>
      {!dryRun && (
        <div className="import-file">
          <label htmlFor={fileInput}>{t('import.file')}</label>
          <input
            id={fileInput}
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setProblem(null);
              setMismatch(null);
              setMapping(null);
            }}
          />
          <p className="muted">{t('import.limits')}</p>
        </div>
      )}
      {!dryRun && mismatch && mapping && (
        <ColumnMappingStep
          mismatch={mismatch}
          mapping={mapping}
          samples={samples}
          onChange={setMapping}
        />
      )}
      {dryRun && counts && (
        <>
          <p data-testid="import-file-name">{t('import.dryRunOf', { file: dryRun.fileName })}</p>
          <ul className="import-counts" data-testid="import-counts">
            {(['create', 'update', 'unchanged', 'error'] as const).map((outcome) => (
              <li key={outcome} className={`import-count import-${outcome}`}>
                <strong>{format.count(counts[outcome])}</strong> {t(`import.outcome.${outcome}`)}
              </li>
            ))}
          </ul>
          <fieldset className="import-shown">
            <legend>{t('import.show')}</legend>
            {(Object.keys(SHOWN) as Shown[]).map((option) => (
              <label key={option}>
                <input
                  type="radio"
                  name="import-shown"
                  checked={shown === option}
                  onChange={() => {
                    setShown(option);
                    setPage(1);
                  }}
                />
                {t(`import.shown.${option}`)}
              </label>
            ))}
          </fieldset>
          {shown === 'changes' && counts.unchanged > 0 && (
            <p className="muted">{t('import.unchangedHidden', { count: counts.unchanged })}</p>
          )}
          <ImportRowList
            columns={dryRun.columns}
            keyColumns={tableColumns.filter((column) => column.primaryKey).map((c) => c.name)}
            labelColumn={rows.data?.importReport.labelColumn ?? null}
            rows={rows.data?.importReport.rows.rows ?? []}
            loading={rows.isPending}
          />
          <Pager
            page={page}
            pageSize={PAGE_SIZE}
            total={rows.data?.importReport.rows.total ?? 0}
            onPage={setPage}
          />
          {counts.error > 0 && <p className="banner banner-error">{t('import.fixErrors')}</p>}
          {counts.error === 0 && writes === 0 && (
            <p className="muted">{t('import.nothingToWrite')}</p>
          )}
        </>
      )}
      <TransferProgressPanel progress={progress} />
      {problem && (
        <div
          className="banner banner-error import-problem"
          role="alert"
          data-testid="import-problem"
        >
          <p>{problem.text}</p>
          {problem.changedRows.length > 0 && (
            <ul>
              {problem.changedRows.map((row) => (
                <li key={row}>{row}</li>
              ))}
            </ul>
          )}
          {problem.rejectedRows?.length ? (
            <ul>
              {problem.rejectedRows.map((row) => (
                <li key={row}>{row}</li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
      <div className="dialog-actions">
        {dryRun && counts && counts.error > 0 && (
          <a className="button" href={errorsFileUrl(dryRun, i18n.language)} download>
            {t('import.downloadErrors')}
          </a>
        )}
        {dryRun && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => {
              setDryRun(null);
              setFile(null);
              setProblem(null);
              setMismatch(null);
              setMapping(null);
            }}
          >
            {t('import.otherFile')}
          </button>
        )}
        {dryRun && problem?.changedRows.length ? (
          <button type="button" className="button" disabled={busy} onClick={runDryRun}>
            {t('import.dryRunAgain')}
          </button>
        ) : null}
        {/* A dry run stops when cancelled; a write, once sent, is not to be left half-known. */}
        <button
          type="button"
          className="button"
          disabled={busy && progress?.phase === 'writing'}
          onClick={() => {
            running.current?.abort();
            onClose();
          }}
        >
          {t('common.cancel')}
        </button>
        {dryRun && counts && counts.error > 0 && writes > 0 && !problem?.changedRows.length && (
          <button type="button" className="button" disabled={busy} onClick={() => apply(true)}>
            {t('import.applyValid', { count: writes })}
          </button>
        )}
        {dryRun && (
          <button
            type="button"
            className="button"
            disabled={busy || !writable}
            onClick={() => setScheduling(true)}
          >
            {t('schedule.action')}
          </button>
        )}
        {dryRun ? (
          <button
            type="button"
            className="button primary"
            disabled={busy || !writable}
            onClick={() => apply()}
          >
            {t('import.apply', { count: writes })}
          </button>
        ) : (
          <button
            type="button"
            className="button primary"
            disabled={busy || !file || !token}
            onClick={runDryRun}
          >
            {busy ? t('import.checking') : t('import.dryRun')}
          </button>
        )}
      </div>
    </>
  );
}

/** IMPORT_ROWS_CHANGED names the rows someone else changed since the dry run. */
function changedRowsOf(error: unknown, t: TFunction): string[] {
  if (!(error instanceof GraphqlRequestError) || error.code !== 'IMPORT_ROWS_CHANGED') return [];
  const rows = (error.errors[0]?.extensions as { rows?: { line: number; key: unknown }[] })?.rows;
  return (rows ?? []).map(({ line, key }) =>
    t('import.changedRow', {
      line,
      key: Object.values((key ?? {}) as Record<string, string>).join(', '),
    }),
  );
}
