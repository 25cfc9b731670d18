import { describe, expect, it } from 'vitest';
import {
  checkInHistoryCsv,
  checkInHistoryFileName,
  type CheckInHistoryLabels,
  type CheckInHistoryRow,
} from '../../../src/core/check-in-history';

const labels: CheckInHistoryLabels = {
  asesor: 'Asesor',
  showroom: 'Showroom',
  entrada: 'Entrada',
  salida: 'Salida',
  minutos: 'Minutos',
  registro: 'Registro',
  motivo: 'Motivo',
  cerradoPor: 'Cerrado por',
  qr: 'QR',
  geolocalizacion: 'Ubicación',
  manual: 'Manual',
  expirado: 'Expirado',
  activo: 'En turno',
  sistema: 'Sistema',
};

// 2026-11-22 09:00 in Mexico City (UTC-6).
const nine = Date.parse('2026-11-22T15:00:00Z') / 1000;
const row = (over: Partial<CheckInHistoryRow> = {}): CheckInHistoryRow => ({
  id: 'ci-1',
  idCorporativo: 'corp-1',
  idUsuario: 'u-1',
  check: true,
  idShowroom: 'sr-1',
  nombreShowroom: 'Showroom Alameda',
  coordenadas: null,
  tipoRegistro: 'Geolocalizacion',
  fechaAlta: { _seconds: nine },
  checkInActivo: false,
  fechaSalida: { _seconds: nine + 3 * 3600 + 59 },
  motivoSalida: 'manual',
  idUsuarioSalida: 'u-1',
  nombreUsuario: 'Sofía Navarro',
  nombreUsuarioSalida: 'Sofía Navarro',
  ...over,
});

describe('check-in history CSV (the quote report CSV rules)', () => {
  it('starts with the BOM, has the header in the given language, local times, minutes, type, reason and who closed', () => {
    const csv = checkInHistoryCsv(
      [
        row(),
        row({
          id: 'ci-2',
          tipoRegistro: 'QR',
          motivoSalida: 'expirado',
          idUsuarioSalida: null,
          nombreUsuarioSalida: null,
          fechaSalida: { _seconds: nine + 43200 },
        }),
        row({
          id: 'ci-3',
          checkInActivo: true,
          fechaSalida: undefined,
          motivoSalida: undefined,
          idUsuarioSalida: undefined,
        }),
      ],
      labels,
      'America/Mexico_City',
    );
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Asesor,Showroom,Entrada,Salida,Minutos,Registro,Motivo,Cerrado por',
      'Sofía Navarro,Showroom Alameda,2026-11-22 09:00,2026-11-22 12:00,180,Ubicación,Manual,Sofía Navarro',
      'Sofía Navarro,Showroom Alameda,2026-11-22 09:00,2026-11-22 21:00,720,QR,Expirado,Sistema',
      'Sofía Navarro,Showroom Alameda,2026-11-22 09:00,,,Ubicación,En turno,',
      '',
    ]);
  });

  it('quotes commas and quotes, and neutralises a name that would start a formula', () => {
    const csv = checkInHistoryCsv(
      [row({ nombreUsuario: '=HYPERLINK("x")', nombreShowroom: 'Sala "A", norte' })],
      labels,
      'UTC',
    );
    expect(csv.split('\r\n')[1]).toBe(
      `"'=HYPERLINK(""x"")","Sala ""A"", norte",2026-11-22 15:00,2026-11-22 18:00,180,Ubicación,Manual,Sofía Navarro`,
    );
  });

  it('file name: Historial_Checkin_{showroom}_{dd}_{mm}_{yyyy}.csv without accents or symbols', () => {
    expect(checkInHistoryFileName('Showroom Playa Azul · Pátzcuaro', '2026-11-22')).toBe(
      'Historial_Checkin_Showroom_Playa_Azul_Patzcuaro_22_11_2026.csv',
    );
    expect(checkInHistoryFileName('***', '2026-01-05')).toBe(
      'Historial_Checkin_Showroom_05_01_2026.csv',
    );
  });
});
