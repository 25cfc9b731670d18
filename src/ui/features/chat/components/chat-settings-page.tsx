/**
 * `/corporativos/{slug}/asistente`: the corporate's chat assistant settings (issue 18 point 4) —
 * the switch, who answers (the built-in inventory assistant or the deployment's webhook) and the
 * welcome message in Spanish and English. The corporate's administrator only
 * (`mayConfigureChat`); the server checks it again.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { mayConfigureChat } from '../../../../core/permissions';
import { button, card } from '../../../components/styles';
import { useCorporateContext } from '../../../layouts/corporate-context';
import { toast } from '../../../lib/toast';
import { useChatSettings, useSaveChatSettings, type ChatSettings } from '../api/chat';

/** Longest welcome message per language (the server's limit). */
const WELCOME_MAX = 300;

type Form = Omit<ChatSettings, 'webhookConfigurado'>;

const fieldset = css({ border: 0, p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: 2 });
const legend = css({ fontWeight: 'semibold', mb: 1 });
const option = css({
  display: 'flex',
  gap: 3,
  alignItems: 'flex-start',
  p: 3,
  border: '1px solid',
  borderColor: 'border',
  borderRadius: 'lg',
  cursor: 'pointer',
  '&:has(input:checked)': { borderColor: 'primary' },
  '& input': { mt: 1, w: 4, h: 4, accentColor: 'var(--vt-colorBotonPrimario, #1f6feb)' },
});
const hint = css({ fontSize: 'sm', color: 'muted' });
const textarea = css({
  w: '100%',
  minH: 20,
  px: 3,
  py: 2,
  border: '1px solid',
  borderColor: 'border',
  borderRadius: 'lg',
  bg: 'surface',
  color: 'text',
  _focusVisible: { outline: '2px solid', outlineColor: 'primary' },
});

export function ChatSettingsPage() {
  const { t } = useTranslation('chat');
  const { corporate, role } = useCorporateContext();
  const allowed = mayConfigureChat(role);
  if (!allowed) {
    return (
      <div className={css({ maxW: '48rem', mx: 'auto' })}>
        <h2 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: 4 })}>
          {t('settings.title')}
        </h2>
        <p>{t('settings.forbidden')}</p>
      </div>
    );
  }
  return <ChatSettingsForm corporate={corporate} />;
}

function ChatSettingsForm({ corporate }: { corporate: { id: string; slug: string } }) {
  const { t } = useTranslation('chat');
  const settings = useChatSettings(corporate.id);
  const save = useSaveChatSettings(corporate);
  const [form, setForm] = useState<Form | null>(null);
  const esId = useId();
  const enId = useId();
  const hintId = useId();

  useEffect(() => {
    if (settings.data && form === null) {
      const { webhookConfigurado: _w, ...rest } = settings.data;
      setForm(rest);
    }
  }, [settings.data, form]);

  if (!form) return <p aria-busy="true">…</p>;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(form, { onSuccess: () => toast.success(t('settings.saved')) });
  };
  const welcome = (lang: 'es' | 'en', value: string) =>
    setForm({ ...form, mensajeBienvenidaChat: { ...form.mensajeBienvenidaChat, [lang]: value } });

  return (
    <div className={css({ maxW: '48rem', mx: 'auto' })}>
      <h2 className={css({ fontSize: '2xl', fontWeight: 'bold', mb: 2 })}>{t('settings.title')}</h2>
      <p className={css({ color: 'muted', mb: 6 })}>{t('settings.intro')}</p>
      <form
        onSubmit={submit}
        className={`${card()} ${css({ p: { base: 5, md: 8 }, display: 'flex', flexDirection: 'column', gap: 6 })}`}
      >
        <label
          className={css({
            display: 'flex',
            gap: 3,
            alignItems: 'center',
            fontWeight: 'semibold',
            minH: 11,
            cursor: 'pointer',
          })}
        >
          <input
            type="checkbox"
            checked={form.mostrarChat}
            onChange={(e) => setForm({ ...form, mostrarChat: e.target.checked })}
            className={css({ w: 5, h: 5, accentColor: 'var(--vt-colorBotonPrimario, #1f6feb)' })}
          />
          {t('settings.enabled')}
        </label>
        <fieldset className={fieldset}>
          <legend className={legend}>{t('settings.who')}</legend>
          {(['inventario', 'webhook'] as const).map((who) => (
            <label key={who} className={option}>
              <input
                type="radio"
                name="asistenteChat"
                value={who}
                checked={form.asistenteChat === who}
                onChange={() => setForm({ ...form, asistenteChat: who })}
              />
              <span>
                <span className={css({ display: 'block', fontWeight: 'semibold' })}>
                  {t(`settings.${who}`)}
                </span>
                <span className={hint}>{t(`settings.${who}Hint`)}</span>
                {who === 'webhook' && !settings.data?.webhookConfigurado ? (
                  <span className={css({ display: 'block', fontSize: 'sm', color: 'danger' })}>
                    {t('settings.webhookMissing')}
                  </span>
                ) : null}
              </span>
            </label>
          ))}
        </fieldset>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: 2 })}>
          <label htmlFor={esId} className={legend}>
            {t('settings.welcomeEs')}
          </label>
          <textarea
            id={esId}
            className={textarea}
            maxLength={WELCOME_MAX}
            aria-describedby={hintId}
            value={form.mensajeBienvenidaChat.es ?? ''}
            onChange={(e) => welcome('es', e.target.value)}
          />
          <label htmlFor={enId} className={legend}>
            {t('settings.welcomeEn')}
          </label>
          <textarea
            id={enId}
            className={textarea}
            maxLength={WELCOME_MAX}
            aria-describedby={hintId}
            value={form.mensajeBienvenidaChat.en ?? ''}
            onChange={(e) => welcome('en', e.target.value)}
          />
          <p id={hintId} className={hint}>
            {t('settings.welcomeHint', { max: WELCOME_MAX })}
          </p>
        </div>
        <div>
          <button
            type="submit"
            className={button({ variant: 'primary' })}
            disabled={save.isPending}
          >
            {t('settings.save')}
          </button>
        </div>
      </form>
    </div>
  );
}
