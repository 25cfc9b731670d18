/**
 * Inventory import for administrators: a CSV of prototypes and units
 * (`tipo,clave,cluster,prototipo,nivel,posicion,status,precio,recamaras,banios,baniosMedios,cajones,areaTotal`).
 * The server takes the file whole or not at all; a rejected file lists each line and reason.
 */

import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import i18n from 'i18next';
import { css } from 'styled-system/css';
import { errorMessage } from '../../../lib/errors';
import { actionButton } from './unit-detail';

export const CSV_HEADER =
  'tipo,clave,cluster,prototipo,nivel,posicion,status,precio,recamaras,banios,baniosMedios,cajones,areaTotal';

interface ImportError {
  linea: number;
  motivo: string;
}

type Outcome =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'done'; filas: number; eventos: number }
  | { kind: 'rejected'; message: string; errores: ImportError[] }
  | { kind: 'failed'; message: string };

/** Sends a CSV text to the import endpoint. */
export async function importInventory(
  idCorporativo: string,
  idDesarrollo: string,
  text: string,
): Promise<Outcome> {
  const res = await fetch(
    `/api/corporativos/${encodeURIComponent(idCorporativo)}/desarrollos/${encodeURIComponent(idDesarrollo)}/importar`,
    {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'text/csv', 'Accept-Language': i18n.language || 'es' },
      body: text,
    },
  );
  const body: unknown = await res.json().catch(() => null);
  if (res.ok) {
    const ok = body as { filas: number; eventos: number };
    return { kind: 'done', filas: ok.filas, eventos: ok.eventos };
  }
  const first = (Array.isArray(body) ? body[0] : body) as {
    errorCode?: string;
    message?: string;
    errores?: ImportError[];
  } | null;
  if (first?.errorCode === 'IMPORT_INVALID') {
    return { kind: 'rejected', message: first.message ?? '', errores: first.errores ?? [] };
  }
  return { kind: 'failed', message: errorMessage(first ?? 'generic') };
}

export function CsvImport({
  idCorporativo,
  idDesarrollo,
}: {
  idCorporativo: string;
  idDesarrollo: string;
}) {
  const { t } = useTranslation('inventory');
  const client = useQueryClient();
  const inputId = useId();
  const labelId = useId();
  const fileNameId = useId();
  const chooseId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const send = async () => {
    if (!file) return;
    setOutcome({ kind: 'sending' });
    try {
      const result = await importInventory(idCorporativo, idDesarrollo, await file.text());
      setOutcome(result);
      if (result.kind === 'done') {
        void client.invalidateQueries({ queryKey: ['api', 'wsObtenerClusters'] });
        void client.invalidateQueries({ queryKey: ['api', 'wsObtenerPrototipos'] });
        void client.invalidateQueries({ queryKey: ['api', 'wsObtenerDesarrollos'] });
      }
    } catch (error) {
      setOutcome({ kind: 'failed', message: errorMessage(error) });
    }
  };
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: 3 })}>
      <p className={css({ fontSize: 'sm', color: 'muted' })}>{t('import.help')}</p>
      <code
        className={css({
          fontSize: 'xs',
          bg: 'rgba(0,0,0,0.04)',
          p: 2,
          borderRadius: 'md',
          overflowX: 'auto',
          whiteSpace: 'nowrap',
        })}
      >
        {CSV_HEADER}
      </code>
      <span id={labelId} className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
        {t('import.file')}
      </span>
      {/*
        The native file input keeps the keyboard and the picker, but the browser draws it as
        untranslated, button-less text in some themes: it is visually hidden (still focusable)
        and a translated label drawn as a button opens it, with the chosen file's name beside.
      */}
      <div
        className={css({
          position: 'relative',
          display: 'flex',
          alignItems: 'center',
          gap: 3,
          minW: 0,
        })}
      >
        <input
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          aria-labelledby={`${labelId} ${chooseId}`}
          aria-describedby={fileNameId}
          className={css({
            position: 'absolute',
            w: '1px',
            h: '1px',
            opacity: 0,
            overflow: 'hidden',
            '&:focus-visible + label': {
              outline: '2px solid',
              outlineColor: 'primary',
              outlineOffset: '2px',
            },
          })}
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setOutcome({ kind: 'idle' });
          }}
        />
        <label
          id={chooseId}
          htmlFor={inputId}
          className={`${actionButton} ${css({ flexShrink: 0 })}`}
        >
          {t('import.chooseFile')}
        </label>
        <span
          id={fileNameId}
          data-testid="csv-file-name"
          title={file?.name}
          className={css({
            fontSize: 'sm',
            color: file ? 'text' : 'muted',
            minW: 0,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          })}
        >
          {file ? t('import.chosenFile', { name: file.name }) : t('import.noFile')}
        </span>
      </div>
      <div>
        <button
          type="button"
          className={actionButton}
          data-primary="true"
          disabled={!file || outcome.kind === 'sending'}
          onClick={() => void send()}
        >
          {outcome.kind === 'sending' ? t('import.sending') : t('import.submit')}
        </button>
      </div>
      {outcome.kind === 'done' ? (
        <p role="status" className={css({ color: 'success', fontWeight: 'semibold' })}>
          {t('import.done', { rows: outcome.filas, events: outcome.eventos })}
        </p>
      ) : null}
      {outcome.kind === 'failed' ? (
        <p role="alert" className={css({ color: 'danger' })}>
          {outcome.message}
        </p>
      ) : null}
      {outcome.kind === 'rejected' ? (
        <div
          role="alert"
          className={css({ border: '1px solid token(colors.danger)', borderRadius: 'lg', p: 3 })}
        >
          <p className={css({ color: 'danger', fontWeight: 'semibold', mb: 2 })}>
            {outcome.message}
          </p>
          <table className={css({ w: '100%', fontSize: 'sm', borderCollapse: 'collapse' })}>
            <caption className={css({ srOnly: true })}>{t('import.errorsCaption')}</caption>
            <thead>
              <tr>
                <th scope="col" className={css({ textAlign: 'left', pr: 3 })}>
                  {t('import.line')}
                </th>
                <th scope="col" className={css({ textAlign: 'left' })}>
                  {t('import.reason')}
                </th>
              </tr>
            </thead>
            <tbody>
              {outcome.errores.map((e, i) => (
                <tr key={`${e.linea}-${i}`}>
                  <td
                    className={css({
                      pr: 3,
                      verticalAlign: 'top',
                      fontVariantNumeric: 'tabular-nums',
                    })}
                  >
                    {e.linea}
                  </td>
                  <td>{e.motivo}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
