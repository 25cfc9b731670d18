/**
 * `/corporativos/{slug}/crm`: the corporate's CRM configuration (issue 17 points 1, 6 and 7; spec
 * §3 `configCRM` / `configCRMWeb`, §5 requirements, §8 messages) — the CRM type, client id, the
 * client secret as write-only (set, replace or remove; the stored value is never shown or sent
 * back), the OAuth and API URLs, the scope, the lead map with a live preview of the CRM body it
 * makes for a sample lead, the classifieds export URL — and the sync queue with its failures and
 * a retry per lead. The corporate's administrator only (`mayConfigureChat`, the same door as the
 * other corporate settings); the server checks it again.
 */

import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from 'styled-system/css';
import { mayConfigureChat } from '../../../../core/permissions';
import type { CrmType } from '../../../../machines/crm-token.machine';
import { AppLink } from '../../../components/app-link';
import { button, card } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { useDateFormat } from '../../../lib/dates';
import { leadPath } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import {
  CRM_TYPES,
  crmConfigQuery,
  crmFieldErrors,
  crmSyncSummaryQuery,
  previewLeadMap,
  useRetryLeadSync,
  useSaveCrmConfig,
  type CrmConfigInput,
  type CrmConfigView,
  type LeadMap,
} from '../api/crm';
import { SyncBadge } from './lead-sync-panel';

/** Our lead fields a map entry may name (others are constants: only `predeterminado` counts). */
const LEAD_FIELDS = [
  'id',
  'nombre',
  'apellidos',
  'email',
  'telefono',
  'celular',
  'notas',
  'medioContacto',
  'tipo',
  'status',
  'desarrollo',
  'idVendedor',
  'fechaAlta',
] as const;

const input = css({
  w: '100%',
  minH: 11,
  px: 3,
  borderRadius: 'lg',
  border: '1px solid',
  borderColor: 'border',
  bg: 'surface',
  color: 'text',
  _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
  '&[aria-invalid="true"]': { borderColor: '#b3261e' },
});
const labelText = css({ display: 'block', fontSize: 'sm', fontWeight: 'semibold', mb: 1 });
const fieldError = css({ color: '#b3261e', fontSize: 'sm', mt: 1 });
const hint = css({ color: 'muted', fontSize: 'sm', mt: 1 });
const sectionTitle = css({ fontSize: 'lg', fontWeight: 'bold' });
const panel = cx(
  card(),
  css({ p: { base: 4, md: 6 }, display: 'flex', flexDirection: 'column', gap: 4 }),
);

type TextField =
  | 'clientId'
  | 'authorizeUri'
  | 'tokenUri'
  | 'scope'
  | 'queryLead'
  | 'queryLeadSecondary'
  | 'insertLead'
  | 'infoSeller'
  | 'apiBase';

interface MapRow {
  key: number;
  ours: string;
  campo: string;
  predeterminado: string;
}

interface Form {
  tipo: CrmType | '';
  text: Record<TextField, string>;
  rows: MapRow[];
  exportUrl: string;
  /** null: keep the stored secret; '': remove it; text: replace it. */
  secret: string | null;
}

let rowKey = 0;

function formOf(config: CrmConfigView): Form {
  return {
    tipo: config.tipo ?? '',
    text: {
      clientId: config.clientId ?? '',
      authorizeUri: config.authorizeUri ?? '',
      tokenUri: config.tokenUri ?? '',
      scope: config.scope ?? '',
      queryLead: config.queryLead ?? '',
      queryLeadSecondary: config.queryLeadSecondary ?? '',
      insertLead: config.insertLead ?? '',
      infoSeller: config.infoSeller ?? '',
      apiBase: config.apiBase ?? '',
    },
    rows: Object.entries(config.mapaLeads ?? {}).map(([ours, entry]) => ({
      key: rowKey++,
      ours,
      campo: entry.campo,
      predeterminado: entry.predeterminado ?? '',
    })),
    exportUrl: config.exportacion?.url ?? '',
    secret: null,
  };
}

function mapOf(rows: MapRow[]): LeadMap {
  const map: LeadMap = {};
  for (const row of rows) {
    const ours = row.ours.trim();
    const campo = row.campo.trim();
    if (!ours || !campo) continue;
    map[ours] = row.predeterminado ? { campo, predeterminado: row.predeterminado } : { campo };
  }
  return map;
}

function inputOf(form: Form): CrmConfigInput {
  const body: CrmConfigInput = {
    tipo: form.tipo === '' ? null : form.tipo,
    ...form.text,
    mapaLeads: mapOf(form.rows),
    exportacion: { url: form.exportUrl.trim() || null },
  };
  if (form.secret !== null) body.clientSecret = form.secret;
  return body;
}

export function CrmSettingsPage() {
  const { t } = useTranslation('crm');
  const { corporate, role } = useCorporateContext();
  const mayConfigure = mayConfigureChat(role);
  // The form's settings (the same read as the form's): the sync summary below it comes once
  // they are in, so the form filling in does not push it down (0.08–0.13 of layout shift).
  const config = useQuery({ ...crmConfigQuery(corporate.id), enabled: mayConfigure });
  if (!mayConfigure) {
    return (
      <div className={css({ maxW: '56rem', mx: 'auto' })}>
        <h2 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: 4 })}>
          {t('settings.title')}
        </h2>
        <p>{t('settings.forbidden')}</p>
      </div>
    );
  }
  return (
    <div
      className={css({
        maxW: '64rem',
        mx: 'auto',
        display: 'flex',
        flexDirection: 'column',
        gap: 6,
      })}
    >
      <div>
        <h2 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: 2 })}>
          {t('settings.title')}
        </h2>
        <p className={css({ color: 'muted' })}>{t('settings.intro')}</p>
      </div>
      <CrmConfigForm corporateId={corporate.id} />
      {config.isPending ? null : (
        <SyncSummary corporateId={corporate.id} corporateSlug={corporate.slug} />
      )}
    </div>
  );
}

function Field({
  label,
  error,
  hintText,
  children,
}: {
  label: string;
  error?: string;
  hintText?: string;
  children: (props: {
    id: string;
    'aria-invalid': boolean;
    'aria-describedby': string | undefined;
  }) => ReactNode;
}) {
  const id = useId();
  const errorId = useId();
  const hintId = useId();
  const described = [error ? errorId : null, hintText ? hintId : null].filter(Boolean).join(' ');
  return (
    <div className={css({ minW: 0 })}>
      <label htmlFor={id} className={labelText}>
        {label}
      </label>
      {children({ id, 'aria-invalid': !!error, 'aria-describedby': described || undefined })}
      {hintText ? (
        <p id={hintId} className={hint}>
          {hintText}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className={fieldError} data-testid="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function CrmConfigForm({ corporateId }: { corporateId: string }) {
  const { t } = useTranslation('crm');
  const config = useQuery(crmConfigQuery(corporateId));
  const save = useSaveCrmConfig(corporateId);
  const [edited, setForm] = useState<Form | null>(null);
  // The settings as loaded until the first edit: drawn in the same commit as the answer (set in
  // an effect, the form came a frame later and the sync summary below it moved).
  const form = edited ?? (config.data ? formOf(config.data) : null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (config.data && edited === null) setForm(formOf(config.data));
  }, [config.data, edited]);
  // A refused save: the first field it names takes the focus (and is scrolled into view), or
  // the form's own message does; a save that failed off screen looked like it did nothing.
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    formRef.current
      ?.querySelector<HTMLElement>('[aria-invalid="true"], [data-form-error]')
      ?.focus();
  }, [errors]);

  if (config.isError) return <p role="alert">{t('settings.loadFailed')}</p>;
  if (!form || !config.data) return <p aria-busy="true">{t('settings.loading')}</p>;
  const secretSet = config.data.clientSecretSet;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    save.mutate(inputOf(form), {
      onSuccess: () => {
        toast.success(t('settings.saved'));
        setForm((f) => (f ? { ...f, secret: null } : f));
      },
      onError: (error) => setErrors(crmFieldErrors(error)),
    });
  };
  const setText = (field: TextField, value: string) =>
    setForm({ ...form, text: { ...form.text, [field]: value } });
  const textField = (field: TextField, hintKey?: string) => (
    <Field
      key={field}
      label={t(`settings.fields.${field}`)}
      error={errors[field]}
      hintText={hintKey ? t(hintKey) : undefined}
    >
      {(props) => (
        <input
          {...props}
          className={input}
          value={form.text[field]}
          onChange={(e) => setText(field, e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      )}
    </Field>
  );
  const zohoOrHubspot = form.tipo === 'Zoho' || form.tipo === 'Hubspot';

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      className={panel}
      noValidate
      aria-labelledby="crm-config-title"
    >
      <h3 id="crm-config-title" className={sectionTitle}>
        {t('settings.configTitle')}
      </h3>
      {errors._form ? (
        <p role="alert" tabIndex={-1} data-form-error className={fieldError}>
          {errors._form}
        </p>
      ) : null}
      <div
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: '1fr', md: '1fr 1fr' },
          gap: 4,
        })}
      >
        <Field label={t('settings.fields.tipo')} error={errors.tipo}>
          {(props) => (
            <select
              {...props}
              className={input}
              value={form.tipo}
              onChange={(e) => setForm({ ...form, tipo: e.target.value as CrmType | '' })}
            >
              <option value="">{t('settings.noCrm')}</option>
              {CRM_TYPES.map((tipo) => (
                <option key={tipo} value={tipo}>
                  {tipo}
                </option>
              ))}
            </select>
          )}
        </Field>
        {textField('clientId')}
        <SecretField
          secretSet={secretSet}
          value={form.secret}
          error={errors.clientSecret}
          onChange={(secret) => setForm({ ...form, secret })}
        />
        {textField('authorizeUri')}
        {textField('tokenUri')}
        {textField('scope', zohoOrHubspot ? 'settings.hints.scopeRequired' : undefined)}
        {textField('apiBase', 'settings.hints.apiBase')}
        {textField('infoSeller')}
        {form.tipo === 'Salesforce' || form.tipo === '' ? (
          <>
            {textField('insertLead')}
            {textField('queryLead')}
            {textField('queryLeadSecondary')}
          </>
        ) : null}
        <Field
          label={t('settings.fields.exportUrl')}
          error={errors.exportacion}
          hintText={t('settings.hints.exportUrl')}
        >
          {(props) => (
            <input
              {...props}
              type="url"
              className={input}
              value={form.exportUrl}
              onChange={(e) => setForm({ ...form, exportUrl: e.target.value })}
              autoComplete="off"
            />
          )}
        </Field>
      </div>

      <LeadMapEditor
        corporateId={corporateId}
        rows={form.rows}
        error={errors.mapaLeads}
        onChange={(rows) => setForm({ ...form, rows })}
      />

      <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
        <button type="submit" className={button()} disabled={save.isPending}>
          {t('settings.save')}
        </button>
      </div>
    </form>
  );
}

/**
 * The client secret, write-only: the page knows only whether one is stored. "Replace" opens an
 * empty field; "Remove" clears it on save; nothing ever fills the field from the server.
 */
function SecretField({
  secretSet,
  value,
  error,
  onChange,
}: {
  secretSet: boolean;
  value: string | null;
  error?: string;
  onChange: (value: string | null) => void;
}) {
  const { t } = useTranslation('crm');
  const status = secretSet ? t('settings.secret.set') : t('settings.secret.notSet');
  if (value === null) {
    return (
      <div className={css({ minW: 0 })}>
        <p className={labelText}>{t('settings.fields.clientSecret')}</p>
        <p className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 })}>
          <span data-testid="secret-status">{status}</span>
          <button
            type="button"
            className={cx(button({ variant: 'ghost' }), css({ minH: 10, px: 3 }))}
            onClick={() => onChange('')}
          >
            {secretSet ? t('settings.secret.replace') : t('settings.secret.setAction')}
          </button>
        </p>
        {error ? <p className={fieldError}>{error}</p> : null}
      </div>
    );
  }
  return (
    <Field
      label={t('settings.fields.clientSecretNew')}
      error={error}
      hintText={
        secretSet
          ? value === ''
            ? t('settings.secret.emptyRemoves')
            : t('settings.secret.replaces')
          : undefined
      }
    >
      {(props) => (
        <span className={css({ display: 'flex', gap: 2 })}>
          <input
            {...props}
            type="password"
            className={input}
            value={value}
            autoComplete="new-password"
            onChange={(e) => onChange(e.target.value)}
          />
          <button
            type="button"
            className={cx(button({ variant: 'ghost' }), css({ flexShrink: 0 }))}
            onClick={() => onChange(null)}
          >
            {t('settings.secret.keep')}
          </button>
        </span>
      )}
    </Field>
  );
}

/** How long after the last change the preview is asked for. */
const PREVIEW_DEBOUNCE_MS = 400;

function LeadMapEditor({
  corporateId,
  rows,
  error,
  onChange,
}: {
  corporateId: string;
  rows: MapRow[];
  error?: string;
  onChange: (rows: MapRow[]) => void;
}) {
  const { t } = useTranslation('crm');
  const listId = useId();
  const titleId = useId();
  const [preview, setPreview] = useState<{ payload?: unknown; error?: string } | null>(null);
  const map = JSON.stringify(mapOf(rows));
  const latest = useRef(map);

  useEffect(() => {
    latest.current = map;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      previewLeadMap(corporateId, JSON.parse(map) as LeadMap, controller.signal).then(
        (answer) => {
          if (latest.current === map) setPreview({ payload: answer.payload });
        },
        (e: unknown) => {
          if (controller.signal.aborted) return;
          setPreview({ error: e instanceof Error ? e.message : '' });
        },
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [corporateId, map]);

  const update = (key: number, patch: Partial<MapRow>) =>
    onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  return (
    <fieldset
      aria-labelledby={titleId}
      className={css({ border: 0, p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: 3 })}
    >
      <h4 id={titleId} className={css({ fontWeight: 'bold' })}>
        {t('settings.map.title')}
      </h4>
      <p className={hint}>{t('settings.map.intro')}</p>
      <datalist id={listId}>
        {LEAD_FIELDS.map((f) => (
          <option key={f} value={f} />
        ))}
      </datalist>
      <div
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: '1fr', lg: '1fr 1fr' },
          gap: 4,
          alignItems: 'start',
        })}
      >
        <ul
          className={css({ listStyle: 'none', display: 'flex', flexDirection: 'column', gap: 3 })}
        >
          {rows.map((row, index) => (
            <li
              key={row.key}
              data-testid="map-row"
              className={css({
                display: 'grid',
                gridTemplateColumns: { base: '1fr 1fr', sm: '1fr 1fr 1fr auto' },
                gap: 2,
                alignItems: 'end',
                p: 3,
                border: '1px solid',
                borderColor: 'border',
                borderRadius: 'lg',
              })}
            >
              <label className={css({ minW: 0 })}>
                <span className={labelText}>{t('settings.map.ours', { n: index + 1 })}</span>
                <input
                  className={input}
                  list={listId}
                  value={row.ours}
                  onChange={(e) => update(row.key, { ours: e.target.value })}
                />
              </label>
              <label className={css({ minW: 0 })}>
                <span className={labelText}>{t('settings.map.campo', { n: index + 1 })}</span>
                <input
                  className={input}
                  value={row.campo}
                  spellCheck={false}
                  onChange={(e) => update(row.key, { campo: e.target.value })}
                />
              </label>
              <label className={css({ minW: 0 })}>
                <span className={labelText}>
                  {t('settings.map.predeterminado', { n: index + 1 })}
                </span>
                <input
                  className={input}
                  value={row.predeterminado}
                  onChange={(e) => update(row.key, { predeterminado: e.target.value })}
                />
              </label>
              <button
                type="button"
                className={button({ variant: 'ghost' })}
                aria-label={t('settings.map.removeLabel', { n: index + 1 })}
                onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
              >
                {t('settings.map.remove')}
              </button>
            </li>
          ))}
          <li>
            <button
              type="button"
              className={button({ variant: 'ghost' })}
              onClick={() =>
                onChange([...rows, { key: rowKey++, ours: '', campo: '', predeterminado: '' }])
              }
            >
              {t('settings.map.add')}
            </button>
          </li>
        </ul>
        <div className={css({ minW: 0 })}>
          <p className={labelText}>{t('settings.map.preview')}</p>
          <pre
            data-testid="map-preview"
            aria-live="polite"
            tabIndex={0}
            aria-label={t('settings.map.preview')}
            className={css({
              fontFamily: 'mono',
              fontSize: 'xs',
              bg: 'rgba(0,0,0,0.04)',
              border: '1px solid',
              borderColor: 'border',
              borderRadius: 'lg',
              p: 3,
              overflow: 'auto',
              maxH: '22rem',
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-word',
            })}
          >
            {preview === null
              ? t('settings.map.previewLoading')
              : preview.error !== undefined
                ? t('settings.map.previewFailed', { message: preview.error })
                : JSON.stringify(preview.payload, null, 2)}
          </pre>
        </div>
      </div>
      {error ? <p className={fieldError}>{error}</p> : null}
    </fieldset>
  );
}

function SyncSummary({
  corporateId,
  corporateSlug,
}: {
  corporateId: string;
  corporateSlug: string;
}) {
  const { t } = useTranslation('crm');
  const formatDate = useDateFormat(useCorporateContext().corporate.zonaHoraria);
  const summary = useQuery(crmSyncSummaryQuery(corporateId));
  const retry = useRetryLeadSync(corporateId);
  const when = (iso: string | null) => (iso ? formatDate(iso, 'dateTime') : '—');
  return (
    <section className={panel} aria-labelledby="crm-sync-title">
      <h3 id="crm-sync-title" className={sectionTitle}>
        {t('settings.sync.title')}
      </h3>
      {summary.isError ? (
        <p role="alert">{t('settings.sync.loadFailed')}</p>
      ) : !summary.data ? (
        <p aria-busy="true">{t('settings.loading')}</p>
      ) : (
        <>
          <dl
            data-testid="sync-counts"
            className={css({
              display: 'grid',
              // Three tiles side by side leave a phone's tile narrower than «Reintentando»: there
              // each count is a row of its own, the label beside the number.
              gridTemplateColumns: { base: '1fr', sm: 'repeat(3, minmax(0, 1fr))' },
              gap: { base: 2, sm: 3 },
              '& div': {
                display: { base: 'flex', sm: 'block' },
                alignItems: 'baseline',
                justifyContent: 'space-between',
                gap: 3,
                minW: 0,
                px: 3,
                py: { base: 2, sm: 3 },
                border: '1px solid',
                borderColor: 'border',
                borderRadius: 'lg',
              },
              '& dt': { fontSize: 'sm', color: 'muted', minW: 0, overflowWrap: 'break-word' },
              '& dd': { fontSize: { base: 'xl', sm: '2xl' }, fontWeight: 'bold' },
            })}
          >
            <div>
              <dt>{t('settings.sync.pending')}</dt>
              <dd>{summary.data.pendientes}</dd>
            </div>
            <div>
              <dt>{t('settings.sync.retrying')}</dt>
              <dd>{summary.data.reintentando}</dd>
            </div>
            <div>
              <dt>{t('settings.sync.failed')}</dt>
              <dd>{summary.data.fallidos}</dd>
            </div>
          </dl>
          {summary.data.recientes.length === 0 ? (
            <p className={hint}>{t('settings.sync.none')}</p>
          ) : (
            <ul
              className={css({
                listStyle: 'none',
                display: 'flex',
                flexDirection: 'column',
                gap: 2,
              })}
            >
              {summary.data.recientes.map((r) => (
                <li
                  key={r.leadId}
                  data-testid="sync-row"
                  className={css({
                    display: 'grid',
                    gridTemplateColumns: { base: '1fr', md: 'minmax(0, 1fr) auto auto' },
                    gap: 2,
                    alignItems: 'center',
                    p: 3,
                    border: '1px solid',
                    borderColor: 'border',
                    borderRadius: 'lg',
                  })}
                >
                  <span className={css({ minW: 0 })}>
                    <AppLink
                      href={leadPath(corporateSlug, r.leadId)}
                      className={css({
                        color: 'link',
                        fontWeight: 'semibold',
                        textDecoration: 'underline',
                      })}
                    >
                      {r.nombre || r.leadId}
                    </AppLink>
                    {r.error ? (
                      <code
                        className={css({
                          display: 'block',
                          fontSize: 'sm',
                          wordBreak: 'break-word',
                        })}
                      >
                        {r.error}
                      </code>
                    ) : null}
                    <span className={css({ display: 'block', fontSize: 'sm', color: 'muted' })}>
                      {t('sync.attempts', { count: r.intentos, ns: 'crm' })} ·{' '}
                      {when(r.ultimoIntento)}
                    </span>
                  </span>
                  <SyncBadge estado={r.estado} />
                  {r.estado === 'fallido' || r.estado === 'reintentando' ? (
                    <button
                      type="button"
                      className={button({ variant: 'ghost' })}
                      aria-label={t('settings.sync.retryLabel', { nombre: r.nombre || r.leadId })}
                      disabled={retry.isPending}
                      onClick={() => retry.mutate(r.leadId)}
                    >
                      {t('sync.retry')}
                    </button>
                  ) : (
                    <span />
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
