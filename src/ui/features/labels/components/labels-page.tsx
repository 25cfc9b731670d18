/**
 * `/corporativos/{slug}/idiomas`: the corporate's own words in each language (issue 19;
 * core/corporate-labels.ts). For every kind (unit statuses, lead statuses, channels, schemes,
 * categories, tags, optionals, the Clients label) each value the corporate uses, as stored in
 * Spanish, with a field for its translation; an empty field is no translation (the value shows
 * as it is). The corporate's administrator only (the server checks it again). Reached from the
 * settings modal.
 */
import { useEffect, useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import {
  LABEL_KINDS,
  LABEL_MAX,
  type CorporateLabels,
  type LabelKind,
  type LabelSet,
} from '../../../../core/corporate-labels';
import { mayConfigureChat } from '../../../../core/permissions';
import {
  SettingsForm,
  SettingsPage,
  settingsInput as input,
} from '../../../components/settings-form';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { api } from '../../../lib/api';
import { toast } from '../../../lib/toast';

interface LabelsAnswer {
  multiIdioma: boolean;
  etiquetas: CorporateLabels;
  valores: Record<LabelKind, string[]>;
}

const labelsPath = (id: string) => `/api/corporativos/${encodeURIComponent(id)}/idiomas`;

export function LabelsPage() {
  const { t } = useTranslation('labels');
  const { corporate, role } = useCorporateContext();
  return (
    <SettingsPage
      title={t('title')}
      width="wide"
      allowed={mayConfigureChat(role)}
      forbidden={t('forbidden')}
    >
      <LabelsForm corporateId={corporate.id} />
    </SettingsPage>
  );
}

function LabelsForm({ corporateId }: { corporateId: string }) {
  const { t } = useTranslation('labels');
  const client = useQueryClient();
  const key = ['api', 'idiomas', corporateId];
  const data = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api<LabelsAnswer>(labelsPath(corporateId), { signal }),
  });
  // The translations are into English: the stored values are Spanish.
  const lang = 'en';
  const [form, setForm] = useState<LabelSet | null>(null);
  const save = useMutation({
    mutationFn: (etiquetas: LabelSet) =>
      api<{ etiquetas: CorporateLabels }>(`${labelsPath(corporateId)}/${lang}`, {
        method: 'PUT',
        body: { etiquetas },
      }),
    onSuccess: (saved) => {
      client.setQueryData<LabelsAnswer>(key, (old) =>
        old ? { ...old, etiquetas: saved.etiquetas } : old,
      );
      setForm(saved.etiquetas[lang] ?? {});
      // The screens' labels (useCorporateLabel) read them again.
      void client.invalidateQueries({ queryKey: ['api', 'wsObtenerIdiomas'] });
      toast.success(t('saved'));
    },
    onError: () => toast.error(t('saveFailed')),
  });
  useEffect(() => {
    if (data.data && form === null) setForm(data.data.etiquetas[lang] ?? {});
  }, [data.data, form]);

  if (data.isError) return <p role="alert">{t('loadFailed')}</p>;
  if (!form || !data.data) return <p aria-busy="true">{t('loading')}</p>;
  const valores = data.data.valores;
  const set = (kind: LabelKind, value: string, label: string) =>
    setForm({ ...form, [kind]: { ...form[kind], [value]: label } });
  return (
    <SettingsForm
      intro={
        <>
          {t('intro')}
          {data.data.multiIdioma ? null : ` ${t('notBilingual')}`}
        </>
      }
      onSubmit={() => save.mutate(form)}
      saving={save.isPending}
      saveLabel={t('save')}
      className={css({ p: { base: 4, md: 8 }, gap: 6 })}
    >
      {LABEL_KINDS.filter((kind) => valores[kind].length > 0).map((kind) => (
        <fieldset key={kind} className={css({ border: 0, p: 0, m: 0 })}>
          <legend className={css({ fontWeight: 'bold', fontSize: 'lg', mb: 3 })}>
            {t(`kinds.${kind}`)}
          </legend>
          <div
            className={css({
              display: 'grid',
              gridTemplateColumns: { base: '1fr', md: 'minmax(0, 1fr) minmax(0, 1.4fr)' },
              gap: { base: 1, md: 3 },
              alignItems: 'center',
            })}
          >
            {valores[kind].map((value) => (
              <LabelRow
                key={value}
                value={value}
                label={form[kind]?.[value] ?? ''}
                onChange={(label) => set(kind, value, label)}
              />
            ))}
          </div>
        </fieldset>
      ))}
    </SettingsForm>
  );
}

function LabelRow({
  value,
  label,
  onChange,
}: {
  value: string;
  label: string;
  onChange: (label: string) => void;
}) {
  const { t } = useTranslation('labels');
  const id = useId();
  return (
    <>
      <label
        htmlFor={id}
        lang="es"
        className={css({ fontWeight: 'semibold', mt: { base: 2, md: 0 } })}
      >
        {value}
      </label>
      <input
        id={id}
        lang="en"
        className={input}
        maxLength={LABEL_MAX}
        placeholder={t('placeholder')}
        value={label}
        onChange={(e) => onChange(e.target.value)}
      />
    </>
  );
}
