/**
 * `/favicon.ico`, which browsers ask for on every page: the gateway's mark, drawn once as a 32×32 PNG (a
 * PNG is what browsers accept at that path) from the SVG below, and also served as `/favicon.svg`.
 */
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#2857c5"/>
<path d="M9 10h14M9 16h14M9 22h8" stroke="#fff" stroke-width="3" stroke-linecap="round"/>
</svg>`;

export function registerFavicon(app: FastifyInstance): void {
  let png: Promise<Buffer> | undefined;
  app.get('/favicon.ico', async (_request, reply) => {
    png ??= sharp(Buffer.from(SVG)).resize(32, 32).png().toBuffer();
    return reply.type('image/png').header('cache-control', 'public, max-age=86400').send(await png);
  });
  app.get('/favicon.svg', async (_request, reply) => reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(SVG));
}
