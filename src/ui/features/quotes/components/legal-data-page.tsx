/**
 * `/corporativos/{slug}/datos-legales`: the developer's legal name and address printed on every
 * quotation (issue 19), set by the corporate's administrator (`mayEditLegalData`; the server
 * checks it again). Reached from the settings modal.
 */
import { useEffect, useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { LEGAL_ADDRESS_MAX, LEGAL_NAME_MAX, mayEditLegalData } from '../../../../core/legal-data';
import {
  SettingsForm,
  SettingsPage,
  settingsInput as input,
} from '../../../components/settings-form';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { api } from '../../../lib/api';
import { toast } from '../../../lib/toast';

export interface LegalData {
  razonSocial: string;
  domicilio: string;
}

const legalPath = (id: string) => `/api/corporativos/${encodeURIComponent(id)}/datos-legales`;

const label = css({ fontWeight: 'semibold' });

export function LegalDataPage() {
  const { t } = useTranslation('quotes');
  const { corporate, role } = useCorporateContext();
  return (
    <SettingsPage
      title={t('legal.title')}
      width="narrow"
      allowed={mayEditLegalData(role)}
      forbidden={t('legal.forbidden')}
    >
      <LegalDataForm corporateId={corporate.id} />
    </SettingsPage>
  );
}

function LegalDataForm({ corporateId }: { corporateId: string }) {
  const { t } = useTranslation('quotes');
  const client = useQueryClient();
  const key = ['api', 'datos-legales', corporateId];
  const data = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api<LegalData>(legalPath(corporateId), { signal }),
  });
  const save = useMutation({
    mutationFn: (body: LegalData) =>
      api<LegalData>(legalPath(corporateId), { method: 'PUT', body }),
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      setForm(saved);
      toast.success(t('legal.saved'));
    },
  });
  const [form, setForm] = useState<LegalData | null>(null);
  const nameId = useId();
  const addressId = useId();
  useEffect(() => {
    if (data.data && form === null) setForm(data.data);
  }, [data.data, form]);

  if (data.isError) return <p role="alert">{t('legal.loadFailed')}</p>;
  if (!form) return <p aria-busy="true">{t('page.loading')}</p>;

  return (
    <SettingsForm
      intro={t('legal.intro')}
      onSubmit={() => save.mutate(form)}
      saving={save.isPending}
      saveLabel={t('legal.save')}
      className={css({ p: { base: 5, md: 8 }, gap: 4 })}
    >
      <label htmlFor={nameId} className={label}>
        {t('legal.name')}
      </label>
      <input
        id={nameId}
        className={input}
        maxLength={LEGAL_NAME_MAX}
        autoComplete="organization"
        value={form.razonSocial}
        onChange={(e) => setForm({ ...form, razonSocial: e.target.value })}
      />
      <label htmlFor={addressId} className={label}>
        {t('legal.address')}
      </label>
      <textarea
        id={addressId}
        className={`${input} ${css({ minH: 20 })}`}
        maxLength={LEGAL_ADDRESS_MAX}
        autoComplete="street-address"
        value={form.domicilio}
        onChange={(e) => setForm({ ...form, domicilio: e.target.value })}
      />
    </SettingsForm>
  );
}
