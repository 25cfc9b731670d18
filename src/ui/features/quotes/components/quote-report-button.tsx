/**
 * The weekly quotation report button of the developments list's top bar (spec §2, §5, §6,
 * §9): shown only with `permisos.generarReporteCotizaciones`. The worker fetches the streamed
 * weekly report (`/api/cotizaciones/reporte-semanal`, the rows of `wsObtenerCotizacionesSemanales`
 * page by page) itself and writes each page into the CSV as it arrives (headers in the interface
 * language, BOM, dropped columns, injection-safe fields), reporting progress through a Comlink
 * proxy; the main thread only receives the Blob and downloads it as
 * `Reporte_Cotizaciones_{dd}_{mm}_{yyyy}.csv`. No quotations: the `no_quotes_this_week` toast.
 */

import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import type { ReportProgress } from '../../../../core/quote-report';
import { mayGenerateAllUsersReport, mayGenerateQuoteReport } from '../../../../core/permissions';
import { getCoreClient } from '../../../../workers/core-client';
import { currentLanguage } from '../../../i18n';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { apiUrl } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { DownloadIcon } from '../../../components/icons';
import { button } from '../../../components/styles';

function download(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser time to start reading the Blob before it is released.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function QuoteReportButton() {
  const { t } = useTranslation('quotes');
  const { corporate, user, role } = useCorporateContext();
  const [progress, setProgress] = useState<ReportProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);

  if (!role || !mayGenerateQuoteReport(role)) return null;

  const run = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    setProgress(null);
    try {
      const result = await getCoreClient().exportQuoteReportFromStream(
        new URL(
          apiUrl('cotizaciones/reporte-semanal', { idCorporativo: corporate.id }),
          window.location.origin,
        ).toString(),
        {
          language: currentLanguage(),
          viewer: { id: user.id, isAdmin: mayGenerateAllUsersReport(role) },
          hidePrototypeName:
            corporate.configCotizacion?.exportadorCotizaciones?.ocultarNombrePrototipoCsv === true,
          timeZone: corporate.zonaHoraria || 'UTC',
        },
        new Date(),
        { signal: controller.signal, onProgress: (p) => setProgress(p) },
      );
      if (result.kind === 'no_quotes_this_week') {
        toast.info(t('report.noQuotes'));
        return;
      }
      download(result.blob, result.fileName);
      toast.success(t('report.done', { count: result.rowCount }));
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) {
        toast.error(t('report.failed'));
      }
    } finally {
      abort.current = null;
      setBusy(false);
      setProgress(null);
    }
  };

  const percent =
    progress && progress.rowsTotal > 0
      ? Math.round((progress.rowsDone / progress.rowsTotal) * 100)
      : 0;
  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: 2 })}>
      {busy ? (
        <>
          <progress
            max={100}
            value={percent}
            aria-label={t('report.progress')}
            aria-valuetext={t('report.progressText', { percent })}
            className={css({ w: { base: 16, md: 28 }, h: 2 })}
          />
          <button
            type="button"
            className={button({ variant: 'ghost' })}
            onClick={() => abort.current?.abort()}
          >
            {t('report.cancel')}
          </button>
        </>
      ) : null}
      <button
        type="button"
        className={css(button.raw(), { px: { base: 3, sm: 5 } })}
        onClick={() => void run()}
        disabled={busy}
        aria-busy={busy}
        aria-label={busy ? t('report.building') : t('report.button')}
      >
        {/* On a phone the bar also holds the check-in banner: the icon alone, named by the label. */}
        <span
          aria-hidden="true"
          className={css({ display: { base: 'inline-flex', sm: 'none' }, '& svg': { w: 5, h: 5 } })}
        >
          <DownloadIcon />
        </span>
        <span className={css({ display: { base: 'none', sm: 'inline' } })}>
          {busy ? t('report.building') : t('report.button')}
        </span>
      </button>
    </div>
  );
}
