/**
 * `/registro/{corporativo}`: a broker asks for access to a corporate (spec §1): name, surnames,
 * e-mail, phone, password (the rule shown live) and real-estate agency (the corporate's list,
 * OTRO last, with a free text for OTRO). The request waits for approval ('Falta aprobación');
 * the broker may sign in meanwhile. `/registro` asks for the corporate's code first.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { button } from '../../../components/styles';
import { errorMessage } from '../../../lib/errors';
import { useRegisterBroker, useRegistrationInfo } from '../api/people';
import { AuthCard } from './auth-card';
import { alert, fieldStack, input, label, linkStyle, notice } from './form-styles';
import { PasswordField, passwordReady } from './password-field';

const OTHER = 'OTRO';

export function RegistrationStartPage() {
  const { t } = useTranslation('people');
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const slug = code.trim().toLowerCase();
    if (slug) void navigate({ to: '/registro/$corporativo', params: { corporativo: slug } });
  };
  return (
    <AuthCard title={t('registration.startTitle')}>
      <form onSubmit={submit} noValidate className={fieldStack}>
        <p className={css({ color: 'muted' })}>{t('registration.startIntro')}</p>
        <div>
          <label htmlFor={id} className={label}>
            {t('registration.corporateCode')}
          </label>
          <input
            id={id}
            required
            autoCapitalize="none"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            className={input}
          />
        </div>
        <button type="submit" className={button({ size: 'lg' })}>
          {t('registration.continue')}
        </button>
      </form>
    </AuthCard>
  );
}

function TextField({
  name,
  type = 'text',
  autoComplete,
  value,
  onChange,
  invalid,
}: {
  name: 'nombre' | 'apellidos' | 'email' | 'telefono' | 'otra';
  type?: string;
  autoComplete?: string;
  value: string;
  onChange: (v: string) => void;
  invalid: boolean;
}) {
  const { t } = useTranslation('people');
  const id = useId();
  const errorId = useId();
  return (
    <div>
      <label htmlFor={id} className={label}>
        {t(`registration.${name}`)}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        required
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={invalid}
        aria-describedby={invalid ? errorId : undefined}
        className={input}
      />
      {invalid ? (
        <p id={errorId} className={css({ color: 'danger', fontSize: 'sm', mt: 1 })}>
          {t('registration.required')}
        </p>
      ) : null}
    </div>
  );
}

export function RegistrationPage({ slug }: { slug: string }) {
  const { t, i18n } = useTranslation('people');
  const info = useRegistrationInfo(slug);
  const register = useRegisterBroker();
  const [fields, setFields] = useState({
    nombre: '',
    apellidos: '',
    email: '',
    telefono: '',
    inmobiliaria: '',
    otra: '',
  });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const agencyId = useId();
  const set = (key: keyof typeof fields) => (value: string) =>
    setFields((f) => ({ ...f, [key]: value }));

  if (info.isPending)
    return (
      <AuthCard title={t('registration.title')}>
        <p className={css({ color: 'muted' })}>{t('auth.loading')}</p>
      </AuthCard>
    );
  if (info.isError)
    return (
      <AuthCard title={t('registration.title')}>
        <p role="alert" className={alert}>
          {t('registration.unknownCorporate')}
        </p>
        <p className={css({ mt: 4, fontSize: 'sm' })}>
          <Link to="/registro" className={linkStyle}>
            {t('registration.startTitle')}
          </Link>
        </p>
      </AuthCard>
    );
  const corporate = info.data;
  if (register.isSuccess)
    return (
      <AuthCard title={t('registration.doneTitle')}>
        <p role="status" className={notice}>
          {t('registration.done', { corporativo: corporate.nombre })}
        </p>
      </AuthCard>
    );

  const missing = (key: keyof typeof fields) =>
    submitted &&
    (key === 'otra' ? fields.inmobiliaria === OTHER && !fields.otra.trim() : !fields[key].trim());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const incomplete = (['nombre', 'apellidos', 'email', 'telefono', 'inmobiliaria'] as const).some(
      (k) => !fields[k].trim(),
    );
    if (
      incomplete ||
      (fields.inmobiliaria === OTHER && !fields.otra.trim()) ||
      !passwordReady(password, confirm) ||
      register.isPending
    )
      return;
    register.mutate({
      slug: corporate.slug,
      nombre: fields.nombre.trim(),
      apellidos: fields.apellidos.trim(),
      email: fields.email.trim(),
      telefono: fields.telefono.trim(),
      password,
      inmobiliaria: fields.inmobiliaria,
      ...(fields.inmobiliaria === OTHER ? { inmobiliariaOtra: fields.otra.trim() } : {}),
      idioma: i18n.language === 'en' ? 'en' : 'es',
    });
  };
  return (
    <AuthCard title={t('registration.title')} wide>
      <p className={css({ color: 'muted', mb: 5 })}>
        {t('registration.intro', { corporativo: corporate.nombre })}
      </p>
      <form onSubmit={submit} noValidate className={fieldStack}>
        <div
          className={css({
            display: 'grid',
            gap: 4,
            gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' },
          })}
        >
          <TextField
            name="nombre"
            autoComplete="given-name"
            value={fields.nombre}
            onChange={set('nombre')}
            invalid={missing('nombre')}
          />
          <TextField
            name="apellidos"
            autoComplete="family-name"
            value={fields.apellidos}
            onChange={set('apellidos')}
            invalid={missing('apellidos')}
          />
          <TextField
            name="email"
            type="email"
            autoComplete="email"
            value={fields.email}
            onChange={set('email')}
            invalid={missing('email')}
          />
          <TextField
            name="telefono"
            type="tel"
            autoComplete="tel"
            value={fields.telefono}
            onChange={set('telefono')}
            invalid={missing('telefono')}
          />
        </div>
        <div>
          <label htmlFor={agencyId} className={label}>
            {t('registration.inmobiliaria')}
          </label>
          <select
            id={agencyId}
            name="inmobiliaria"
            required
            value={fields.inmobiliaria}
            onChange={(e) => set('inmobiliaria')(e.target.value)}
            aria-invalid={missing('inmobiliaria')}
            className={input}
          >
            <option value="">{t('registration.choose')}</option>
            {corporate.inmobiliarias.map((a) => (
              <option key={a} value={a}>
                {a === OTHER ? t('registration.otherOption') : a}
              </option>
            ))}
          </select>
        </div>
        {fields.inmobiliaria === OTHER ? (
          <TextField
            name="otra"
            value={fields.otra}
            onChange={set('otra')}
            invalid={missing('otra')}
          />
        ) : null}
        <PasswordField
          value={password}
          onChange={setPassword}
          confirm={confirm}
          onConfirmChange={setConfirm}
          showErrors={submitted}
        />
        {register.error ? (
          <p role="alert" className={alert}>
            {errorMessage(register.error)}
          </p>
        ) : null}
        <button type="submit" aria-disabled={register.isPending} className={button({ size: 'lg' })}>
          {register.isPending ? t('registration.sending') : t('registration.submit')}
        </button>
      </form>
    </AuthCard>
  );
}
