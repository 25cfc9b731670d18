/**
 * The demo tenant draws its own pictures and documents, so nothing is fetched from outside.
 * Each is a small SVG (or a one-page PDF) built from the development's colours.
 */
import { escapeHtml as esc } from '../http/html';

export function buildingSvg(title: string, hue: number, variant: number): string {
  const sky = `hsl(${hue}, 55%, ${82 - (variant % 3) * 6}%)`;
  const ground = `hsl(${(hue + 90) % 360}, 35%, 42%)`;
  const towers: string[] = [];
  const count = 2 + (variant % 3);
  for (let i = 0; i < count; i++) {
    const w = 110 + ((i * 37 + variant * 13) % 60);
    const h = 220 + ((i * 71 + variant * 29) % 200);
    const x = 80 + i * (720 / count);
    const y = 560 - h;
    const body = `hsl(${(hue + i * 12) % 360}, 25%, ${30 + i * 8}%)`;
    towers.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="4" fill="${body}"/>`);
    for (let row = y + 16; row < 540; row += 28) {
      for (let col = x + 12; col < x + w - 16; col += 24) {
        const lit = (row * 7 + col * 3 + variant) % 5 === 0;
        towers.push(
          `<rect x="${col}" y="${row}" width="14" height="16" fill="${lit ? '#ffe8a3' : 'rgba(255,255,255,0.55)'}"/>`,
        );
      }
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 960 640" width="960" height="640">
<rect width="960" height="640" fill="${sky}"/>
<circle cx="${780 - variant * 20}" cy="120" r="54" fill="hsl(45, 95%, 70%)" opacity="0.9"/>
${towers.join('\n')}
<rect y="560" width="960" height="80" fill="${ground}"/>
<text x="40" y="612" font-family="system-ui, sans-serif" font-size="30" fill="#fff" font-weight="600">${esc(title)}</text>
</svg>`;
}

export function logoSvg(initials: string, hue: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" width="200" height="200">
<rect width="200" height="200" rx="36" fill="hsl(${hue}, 60%, 32%)"/>
<path d="M40 150 L100 50 L160 150 Z" fill="hsl(${hue}, 70%, 62%)" opacity="0.85"/>
<text x="100" y="178" text-anchor="middle" font-family="system-ui, sans-serif" font-size="34" font-weight="700" fill="#fff">${esc(initials)}</text>
</svg>`;
}

export function floorPlanSvg(title: string, rooms: number, hue: number): string {
  const cells: string[] = [];
  const cols = Math.max(2, rooms + 1);
  for (let i = 0; i < cols; i++) {
    cells.push(
      `<rect x="${40 + i * (880 / cols)}" y="80" width="${880 / cols - 10}" height="${i % 2 ? 260 : 420}" fill="none" stroke="hsl(${hue},40%,30%)" stroke-width="6"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 960 560" width="960" height="560">
<rect width="960" height="560" fill="#fbfaf7"/>
${cells.join('\n')}
<text x="40" y="50" font-family="system-ui, sans-serif" font-size="28" fill="hsl(${hue},40%,25%)">${esc(title)}</text>
</svg>`;
}

/** A minimal one-page PDF with a few lines of text (Helvetica, WinAnsi-safe ASCII). */
export function simplePdf(lines: string[]): string {
  const ascii = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\x20-\x7e]/g, '?')
      .replace(/([()\\])/g, '\\$1');
  const text = lines
    .map((line, i) => `BT /F1 ${i === 0 ? 22 : 12} Tf 60 ${760 - i * 28} Td (${ascii(line)}) Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return out;
}
