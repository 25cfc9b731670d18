/**
 * The check-in rules in the worker (issue 14): the card asks the worker which showroom the
 * position is within, and the host administrator's CSV is built there; the worker and the
 * direct fallback answer exactly what the core does.
 */
import '@vitest/web-worker';
import { afterEach, describe, expect, it } from 'vitest';
import { checkInCandidate } from '../../../src/core/check-in';
import type { CheckInHistoryRow } from '../../../src/core/check-in-history';
import type { Showroom } from '../../../src/core/types';
import { CoreClient } from '../../../src/workers/core-client';

const KM_PER_DEGREE = (Math.PI * 6371) / 180;
const alameda: Showroom = {
  id: 'sr-alameda',
  nombre: 'Showroom Alameda',
  activo: true,
  coordenadas: { _latitude: 19.4349, _longitude: -99.1442 },
};
const north = (km: number, accuracy: number) => ({
  latitude: 19.4349 + km / KM_PER_DEGREE,
  longitude: -99.1442,
  accuracy,
});
const row: CheckInHistoryRow = {
  id: 'ci-1',
  idCorporativo: 'c',
  idUsuario: 'u',
  check: true,
  idShowroom: alameda.id,
  nombreShowroom: alameda.nombre,
  coordenadas: null,
  tipoRegistro: 'QR',
  fechaAlta: { _seconds: Date.parse('2026-11-22T15:00:00Z') / 1000 },
  checkInActivo: true,
  nombreUsuario: '+Sofía',
  nombreUsuarioSalida: null,
};
const labels = {
  asesor: 'Adviser',
  showroom: 'Showroom',
  entrada: 'In',
  salida: 'Out',
  minutos: 'Minutes',
  registro: 'By',
  motivo: 'Reason',
  cerradoPor: 'Closed by',
  qr: 'QR',
  geolocalizacion: 'Location',
  manual: 'By hand',
  expirado: 'Expired',
  activo: 'On duty',
  sistema: 'System',
};

const clients: CoreClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.terminate();
});

for (const mode of ['worker', 'direct'] as const) {
  describe(`check-in in the core client (${mode})`, () => {
    const make = () => {
      const c = new CoreClient({ forceDirect: mode === 'direct' });
      clients.push(c);
      return c;
    };

    it('answers the core rule: inside, too far with distance and radius, inaccurate', async () => {
      const c = make();
      expect(c.mode).toBe(mode);
      for (const position of [north(0.05, 20), north(2, 1200), north(1.3, 1200), north(0, 9000)]) {
        expect(await c.checkInCandidate([alameda], position)).toEqual(
          checkInCandidate([alameda], position),
        );
      }
    });

    it('builds the day CSV as a Blob: BOM, header in the given language, formula-safe names', async () => {
      const { fileName, blob } = await make().checkInHistoryCsv(
        [row],
        labels,
        'America/Mexico_City',
        'Showroom Alameda',
        '2026-11-22',
      );
      expect(fileName).toBe('Historial_Checkin_Showroom_Alameda_22_11_2026.csv');
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blob.arrayBuffer());
      expect(text).toBe(
        '\uFEFFAdviser,Showroom,In,Out,Minutes,By,Reason,Closed by\r\n' +
          "'+Sofía,Showroom Alameda,2026-11-22 09:00,,,QR,On duty,\r\n",
      );
    });
  });
}
