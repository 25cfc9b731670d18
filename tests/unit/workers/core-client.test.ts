import '@vitest/web-worker';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultStatusColors } from '../../../src/core/status';
import { emptyUnitFilters, filterUnitIndexes } from '../../../src/core/filters';
import type { FilterContext } from '../../../src/core/filters';
import type { Money } from '../../../src/core/brands';
import { buildQuoteReportCsv } from '../../../src/core/quote-report';
import type { QuoteReportOptions } from '../../../src/core/quote-report';
import type { PaymentScheme } from '../../../src/core/types';
import { CoreClient, getCoreClient } from '../../../src/workers/core-client';
import { makeQuoteRows } from '../../fixtures/quote-rows';
import { makeUnits } from '../../fixtures/units';

const ctx: FilterContext = { statusColors: defaultStatusColors(), hideUnavailablePrices: false };
const units = makeUnits(2_000);
const reportOptions: QuoteReportOptions = {
  language: 'es',
  viewer: { id: 'a0', isAdmin: true },
  hidePrototypeName: false,
  timeZone: 'America/Mexico_City',
};
const scheme: PaymentScheme = {
  id: 's1',
  nombre: 'Contado',
  descuento: { nombre: 'Descuento', porcentaje: 0.05 },
  enganche: { nombre: 'Enganche', porcentaje: 0.3 },
  diferido: { nombre: 'Diferido', porcentaje: 0 },
  mensualidades: { nombre: 'Mensualidades', porcentaje: 0.2, numeroMensualidades: 12 },
  escrituracion: { nombre: 'Escrituración', porcentaje: 0 },
  contraEntrega: { nombre: 'Contra entrega', porcentaje: 0.5 },
};

const clients: CoreClient[] = [];
function client(options: ConstructorParameters<typeof CoreClient>[0] = {}): CoreClient {
  const c = new CoreClient(options);
  clients.push(c);
  return c;
}

afterEach(() => {
  for (const c of clients.splice(0)) c.terminate();
});

async function blobText(blob: Blob): Promise<string> {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blob.arrayBuffer());
}

for (const mode of ['worker', 'direct'] as const) {
  describe(`CoreClient (${mode})`, () => {
    const make = (extra: ConstructorParameters<typeof CoreClient>[0] = {}) =>
      client({ forceDirect: mode === 'direct', transferChunk: 500, ...extra });

    it(`runs in ${mode} mode`, () => {
      expect(make().mode).toBe(mode);
    });

    it('filters loaded units and returns their indexes as a Uint32Array', async () => {
      const c = make();
      await expect(c.loadUnits('d1', units)).resolves.toBe(2_000);
      const filters = { ...emptyUnitFilters(), recamaras: [4] };
      const ids = await c.filterUnitIds('d1', filters, ctx);
      expect(ids).toBeInstanceOf(Uint32Array);
      expect(Array.from(ids)).toEqual(Array.from(filterUnitIndexes(units, filters, ctx)));
      expect(ids.length).toBeGreaterThan(0);
      for (const i of ids) expect(units[i]!.caracteristicas.recamaras).toBeGreaterThanOrEqual(4);
      const all = await c.filterUnits('d1', emptyUnitFilters(), ctx);
      expect(all).toHaveLength(2_000);
    });

    it('prices a quote with parts summing to the final price', async () => {
      const q = await make().quote({
        unitPrice: 250_000_000 as Money,
        scheme,
        now: new Date('2024-06-15T12:00:00Z'),
      });
      expect(q.finalPrice).toBe(237_500_000);
      expect(q.parts.reduce((s, p) => s + p.amount, 0)).toBe(237_500_000);
      expect(q.instalments).toHaveLength(12);
    });

    it('rejects an invalid scheme with its message', async () => {
      const bad = { ...scheme, contraEntrega: { nombre: 'Contra entrega', porcentaje: 0.4 } };
      await expect(make().validateScheme(bad)).resolves.toMatchObject({
        ok: false,
        code: 'parts_not_one',
      });
      await expect(
        make().quote({ unitPrice: 100 as Money, scheme: bad, now: new Date(0) }),
      ).rejects.toThrow(/must sum to 1/);
    });

    it('exports the quote report as a Blob with BOM, header and every row, with progress', async () => {
      const rows = makeQuoteRows(40_000, 3);
      const progress: number[] = [];
      const result = await make().exportQuoteReport(
        rows,
        reportOptions,
        new Date('2024-06-07T18:00:00Z'),
        { onProgress: (p) => progress.push(p.rowsDone) },
      );
      if (result.kind !== 'report') throw new Error('expected a report');
      expect(result.fileName).toBe('Reporte_Cotizaciones_07_06_2024.csv');
      expect(result.blob).toBeInstanceOf(Blob);
      expect(result.rowCount).toBe(40_000);
      const bytes = new Uint8Array(await result.blob.arrayBuffer());
      expect(Array.from(bytes.slice(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
      const text = await blobText(result.blob);
      expect(text.startsWith('\uFEFFFecha,Asesor,Cliente,')).toBe(true);
      // Three chunks through one reused buffer: each was copied out before the next was written.
      const whole = buildQuoteReportCsv(rows, reportOptions, new Date('2024-06-07T18:00:00Z'));
      expect(whole.kind === 'report' && whole.csv).toBe(text);
      expect(result.byteLength).toBe(bytes.length);
      // Progress arrives asynchronously from a worker; wait for the last one.
      await expect.poll(() => progress.at(-1)).toBe(40_000);
    });

    it('gives no_quotes_this_week when the viewer has no quotes', async () => {
      const rows = makeQuoteRows(100, 3);
      const result = await make().exportQuoteReport(
        rows,
        { ...reportOptions, viewer: { id: 'nobody', isAdmin: false } },
        new Date(),
      );
      expect(result).toEqual({ kind: 'no_quotes_this_week' });
    });

    it('rejects with AbortError when the signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(
        make().exportQuoteReport(makeQuoteRows(10), reportOptions, new Date(), {
          signal: controller.signal,
        }),
      ).rejects.toMatchObject({ name: 'AbortError' });
    });

    it('cancels a long export mid-way with AbortError, then keeps working', async () => {
      const c = make();
      await c.loadUnits('d1', units);
      const controller = new AbortController();
      const rows = makeQuoteRows(200_000, 5);
      const pending = c.exportQuoteReport(rows, reportOptions, new Date(), {
        signal: controller.signal,
        onProgress: () => controller.abort(),
      });
      // @vitest/web-worker runs the worker on this thread without task boundaries, so
      // progress only arrives after the build: there, abort while the job is under way.
      if (mode === 'worker') controller.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      if (mode === 'worker') expect(c.running).toBe(false);
      // The worker was restarted; the unit set is sent again transparently.
      const ids = await c.filterUnitIds('d1', emptyUnitFilters(), ctx);
      expect(ids.length).toBe(2_000);
    });
  });
}

describe('CoreClient lifecycle', () => {
  it('starts the worker lazily and shuts it down after the idle time', async () => {
    const c = client({ idleMs: 50 });
    expect(c.running).toBe(false);
    await c.loadUnits('d1', units.slice(0, 10));
    expect(c.running).toBe(true);
    await expect.poll(() => c.running, { timeout: 2_000 }).toBe(false);
    // Next call restarts it and reloads the units it had.
    const ids = await c.filterUnitIds('d1', emptyUnitFilters(), ctx);
    expect(ids.length).toBe(10);
    expect(c.running).toBe(true);
  });

  it('warm starts the worker ahead of its first call, once, and lets it go when no call comes', async () => {
    let made = 0;
    const c = client({
      idleMs: 50,
      createWorker: () => {
        made++;
        return new Worker(new URL('../../../src/workers/core.worker.ts', import.meta.url), {
          type: 'module',
        });
      },
    });
    c.warm();
    expect(c.running).toBe(true);
    c.warm();
    await c.loadUnits('d1', units.slice(0, 10));
    expect(made).toBe(1);
    await expect.poll(() => c.running, { timeout: 2_000 }).toBe(false);
    // Unused: started and stopped again after the idle time.
    const unused = client({ idleMs: 50 });
    unused.warm();
    expect(unused.running).toBe(true);
    await expect.poll(() => unused.running, { timeout: 2_000 }).toBe(false);
    // Nothing to start without a worker.
    const direct = client({ forceDirect: true });
    direct.warm();
    expect(direct.running).toBe(false);
  });

  it('a cancelled short call rejects without restarting the worker', async () => {
    const c = client();
    await c.loadUnits('d1', units);
    const controller = new AbortController();
    const pending = c.filterUnitIds('d1', emptyUnitFilters(), ctx, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(c.running).toBe(true);
  });

  it('falls back to direct calls when Worker does not exist', () => {
    const original = globalThis.Worker;
    // @ts-expect-error -- simulate a runtime without Worker
    delete globalThis.Worker;
    try {
      expect(new CoreClient().mode).toBe('direct');
    } finally {
      globalThis.Worker = original;
    }
    expect(new CoreClient().mode).toBe('worker');
  });

  it('shares one client for the UI', () => {
    expect(getCoreClient()).toBe(getCoreClient());
  });

  it('rejects filtering a key that was never loaded', async () => {
    await expect(client().filterUnitIds('nope', emptyUnitFilters(), ctx)).rejects.toThrow(
      "no units loaded under 'nope'",
    );
  });
});
