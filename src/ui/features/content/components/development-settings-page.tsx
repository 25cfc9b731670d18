/**
 * `/corporativos/{c}/desarrollos/{d}/ajustes`: the development's settings (issue 20;
 * core/development-settings.ts) for the corporate's administrator — which sub-pages the
 * development shows and in what order, the landing page its public pages send visitors to,
 * campaigns, unit features, subcategories, project, the level view's facade colour, and the
 * message template for its leads. One save records the changed fields.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import {
  DEVELOPMENT_PAGES,
  type DevelopmentPage,
  type DevelopmentSettings,
} from '../../../../core/development-settings';
import { mayAdministerContent } from '../../../../core/featured';
import { button, card } from '../../../components/styles';
import { useDevelopmentContext } from '../../../layouts/development-context';
import { api, ApiRequestError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { dismissToast, toast } from '../../../lib/toast';

type Settings = Required<DevelopmentSettings>;

const input = css({
  w: '100%',
  px: 3,
  py: 2,
  border: '1px solid',
  borderColor: 'border',
  borderRadius: 'lg',
  bg: 'surface',
  color: 'text',
  _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
  '&[aria-invalid="true"]': { borderColor: 'danger' },
});
const fieldError = css({ color: 'danger', fontSize: 'sm', mt: 1 });
const section = `${card()} ${css({ p: { base: 4, md: 6 }, display: 'flex', flexDirection: 'column', gap: 3 })}`;

export function DevelopmentSettingsPage() {
  const { t } = useTranslation('content');
  const { corporate, development, role } = useDevelopmentContext();
  if (!mayAdministerContent(role)) return <p>{t('settings.forbidden')}</p>;
  return <SettingsForm corporateId={corporate.id} developmentId={development.id} />;
}

/** The id of the text that explains a refused field (its control's `aria-describedby`). */
const errorIdOf = (id: string) => `${id}-error`;

function Field({
  label,
  children,
  id,
  error,
}: {
  label: string;
  children: ReactNode;
  id: string;
  /** Why the last save refused the field: shown under it, which it describes. */
  error?: string | null;
}) {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: 1 })}>
      <label htmlFor={id} className={css({ fontWeight: 'semibold' })}>
        {label}
      </label>
      {children}
      {error ? (
        <p id={errorIdOf(id)} className={fieldError} data-testid="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function SettingsForm({
  corporateId,
  developmentId,
}: {
  corporateId: string;
  developmentId: string;
}) {
  const { t } = useTranslation('content');
  const { t: ti } = useTranslation('inventory');
  const client = useQueryClient();
  const path = `/api/corporativos/${encodeURIComponent(corporateId)}/desarrollos/${encodeURIComponent(developmentId)}/ajustes`;
  const key = ['api', 'ajustes', { corporateId, developmentId }];
  const data = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api<Settings>(path, { signal }),
  });
  const [form, setForm] = useState<Settings | null>(null);
  const ids = {
    landing: useId(),
    campaigns: useId(),
    features: useId(),
    sub: useId(),
    project: useId(),
    template: useId(),
  };
  useEffect(() => {
    if (data.data && form === null) setForm(data.data);
  }, [data.data, form]);
  /** The fields the last save was refused for (`campos` of SETTINGS_INVALID). */
  const [refused, setRefused] = useState<string[]>([]);
  /** Bumped by each refusal naming a field: the first marked field then takes the focus. */
  const [refusals, setRefusals] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);
  /** The error toasts this form showed: a new save takes them away (they told of an old one). */
  const errorToasts = useRef<number[]>([]);
  const dismissErrors = () => {
    errorToasts.current.forEach(dismissToast);
    errorToasts.current = [];
  };
  const save = useMutation({
    mutationFn: (body: Settings) => api<Settings>(path, { method: 'PUT', body }),
    // Its errors are told here (a toast naming the fields, each marked), not by the generic one.
    meta: { silent: true },
    onSuccess: (saved) => {
      dismissErrors();
      client.setQueryData(key, saved);
      setForm(saved);
      // The development's document (tabs, template) changed.
      void client.invalidateQueries({ queryKey: ['api', 'wsObtenerDesarrollo'] });
      void client.invalidateQueries({ queryKey: ['api', 'wsObtenerDesarrollos'] });
      toast.success(t('settings.saved'));
    },
    onError: (error) => {
      const campos =
        error instanceof ApiRequestError
          ? ((error.body as { campos?: string[] }[] | null)?.[0]?.campos ?? [])
          : [];
      setRefused(campos);
      if (campos.length > 0) setRefusals((n) => n + 1);
      errorToasts.current.push(
        toast.error(
          campos.length > 0
            ? t('settings.invalid', {
                campos: campos
                  .map((c) => t(`settings.fields.${c}`, { defaultValue: c }))
                  .join(', '),
              })
            : `${t('settings.saveFailed')} ${errorMessage(error)}`,
        ),
      );
    },
  });
  if (data.isError) return <p role="alert">{t('settings.loadFailed')}</p>;
  if (!form) return <p aria-busy="true">{t('tutorials.loading')}</p>;

  const lines = (v: string) => v.split('\n');
  const shown = form.menu;
  const hidden = DEVELOPMENT_PAGES.filter((p) => !shown.includes(p));
  const setMenu = (menu: DevelopmentPage[]) => setForm({ ...form, menu });
  const move = (i: number, by: -1 | 1) => {
    const next = shown.slice();
    const [it] = next.splice(i, 1);
    next.splice(i + by, 0, it!);
    setMenu(next);
  };
  /** The message at a refused field, and what its control carries (nothing when accepted). */
  const errorOf = (campo: string) =>
    !refused.includes(campo)
      ? null
      : campo === 'landingPage'
        ? form.landingPage.trim() === ''
          ? t('settings.errors.landingRequired')
          : t('settings.errors.landingPage')
        : t('settings.errors.tooLong');
  const marks = (campo: string, id: string) =>
    refused.includes(campo)
      ? { 'aria-invalid': true as const, 'aria-describedby': errorIdOf(id) }
      : {};
  const row = css({ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', py: 1 });
  const ghost = button({ variant: 'ghost' });
  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        dismissErrors();
        setRefused([]);
        save.mutate({ ...form, campanias: form.campanias.filter((c) => c.trim() !== '') });
      }}
      className={css({ display: 'flex', flexDirection: 'column', gap: 4, maxW: '56rem' })}
    >
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{t('settings.title')}</h2>
      <section className={section} aria-labelledby={`${ids.landing}-menu`}>
        <h3 id={`${ids.landing}-menu`} className={css({ fontWeight: 'bold' })}>
          {t('settings.menu')}
        </h3>
        <p className={css({ color: 'muted', fontSize: 'sm' })}>{t('settings.menuHint')}</p>
        <ol className={css({ listStyle: 'none', p: 0 })}>
          {shown.map((page, i) => (
            <li key={page} className={row} data-menu-page={page}>
              <span className={css({ flex: '1', minW: '9rem' })}>
                {i + 1}. {ti(`pages.${page}`)}
              </span>
              <button
                type="button"
                className={ghost}
                disabled={i === 0}
                onClick={() => move(i, -1)}
                aria-label={t('settings.up', { page: ti(`pages.${page}`) })}
              >
                ↑
              </button>
              <button
                type="button"
                className={ghost}
                disabled={i === shown.length - 1}
                onClick={() => move(i, 1)}
                aria-label={t('settings.down', { page: ti(`pages.${page}`) })}
              >
                ↓
              </button>
              <button
                type="button"
                className={ghost}
                disabled={shown.length === 1}
                onClick={() => setMenu(shown.filter((p) => p !== page))}
                aria-label={t('settings.hide', { page: ti(`pages.${page}`) })}
              >
                {t('settings.hideShort')}
              </button>
            </li>
          ))}
        </ol>
        {hidden.length > 0 ? (
          <ul aria-label={t('settings.hidden')} className={css({ listStyle: 'none', p: 0 })}>
            {hidden.map((page) => (
              <li key={page} className={row}>
                <span className={css({ flex: '1', minW: '9rem', color: 'muted' })}>
                  {ti(`pages.${page}`)}
                </span>
                <button
                  type="button"
                  className={ghost}
                  onClick={() => setMenu([...shown, page])}
                  aria-label={t('settings.show', { page: ti(`pages.${page}`) })}
                >
                  {t('settings.showShort')}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <section className={section} aria-labelledby={ids.landing}>
        <h3 id={ids.landing} className={css({ fontWeight: 'bold' })}>
          {t('settings.public')}
        </h3>
        <label className={css({ display: 'flex', gap: 2, alignItems: 'center' })}>
          <input
            type="checkbox"
            checked={form.reedireccionarLandingPage}
            onChange={(e) => setForm({ ...form, reedireccionarLandingPage: e.target.checked })}
          />
          {t('settings.redirect')}
        </label>
        <Field
          id={`${ids.landing}-url`}
          label={t('settings.fields.landingPage')}
          error={errorOf('landingPage')}
        >
          <input
            id={`${ids.landing}-url`}
            {...marks('landingPage', `${ids.landing}-url`)}
            type="url"
            inputMode="url"
            placeholder="https://"
            className={input}
            value={form.landingPage}
            onChange={(e) => setForm({ ...form, landingPage: e.target.value })}
          />
        </Field>
        <label className={css({ display: 'flex', gap: 2, alignItems: 'center' })}>
          <input
            type="checkbox"
            checked={form.configVistaNivel.mostrarColorIndependienteFachada}
            onChange={(e) =>
              setForm({
                ...form,
                configVistaNivel: { mostrarColorIndependienteFachada: e.target.checked },
              })
            }
          />
          {t('settings.facade')}
        </label>
      </section>
      <section className={section} aria-labelledby={ids.campaigns}>
        <h3 id={ids.campaigns} className={css({ fontWeight: 'bold' })}>
          {t('settings.catalogue')}
        </h3>
        <Field
          id={`${ids.campaigns}-c`}
          label={t('settings.fields.campanias')}
          error={errorOf('campanias')}
        >
          <textarea
            id={`${ids.campaigns}-c`}
            {...marks('campanias', `${ids.campaigns}-c`)}
            className={input}
            value={form.campanias.join('\n')}
            onChange={(e) => setForm({ ...form, campanias: lines(e.target.value) })}
          />
        </Field>
        <Field
          id={ids.features}
          label={t('settings.fields.caracteristicasUnidad')}
          error={errorOf('caracteristicasUnidad')}
        >
          <textarea
            id={ids.features}
            {...marks('caracteristicasUnidad', ids.features)}
            className={input}
            value={form.caracteristicasUnidad.join('\n')}
            onChange={(e) => setForm({ ...form, caracteristicasUnidad: lines(e.target.value) })}
          />
        </Field>
        <Field
          id={ids.sub}
          label={t('settings.fields.subcategorias')}
          error={errorOf('subcategorias')}
        >
          <textarea
            id={ids.sub}
            {...marks('subcategorias', ids.sub)}
            className={input}
            value={form.subcategorias.join('\n')}
            onChange={(e) => setForm({ ...form, subcategorias: lines(e.target.value) })}
          />
        </Field>
        <Field id={ids.project} label={t('settings.fields.proyecto')} error={errorOf('proyecto')}>
          <input
            id={ids.project}
            {...marks('proyecto', ids.project)}
            className={input}
            value={form.proyecto}
            onChange={(e) => setForm({ ...form, proyecto: e.target.value })}
          />
        </Field>
      </section>
      <section className={section} aria-labelledby={`${ids.template}-h`}>
        <h3 id={`${ids.template}-h`} className={css({ fontWeight: 'bold' })}>
          {t('settings.templateTitle')}
        </h3>
        <Field
          id={ids.template}
          label={t('settings.fields.plantillaMensaje')}
          error={errorOf('plantillaMensaje')}
        >
          <textarea
            id={ids.template}
            {...marks('plantillaMensaje', ids.template)}
            className={`${input} ${css({ minH: 24 })}`}
            value={form.plantillaMensaje.prospecto}
            onChange={(e) =>
              setForm({
                ...form,
                plantillaMensaje: { ...form.plantillaMensaje, prospecto: e.target.value },
              })
            }
          />
        </Field>
        <p className={css({ color: 'muted', fontSize: 'sm' })}>{t('settings.templateHint')}</p>
      </section>
      <div>
        <button type="submit" className={button({ variant: 'primary' })} disabled={save.isPending}>
          {t('settings.save')}
        </button>
      </div>
    </form>
  );
}
