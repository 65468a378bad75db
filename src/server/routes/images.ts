/** What both image operations share: produce under a quota grant, refund on failure, answer the result. */
import type { FastifyReply } from 'fastify';
import type { GatewayContext } from '../context.ts';
import type { ImageGrant } from './quota.ts';

export async function sendImages(
  reply: FastifyReply,
  grant: ImageGrant,
  context: GatewayContext,
  produce: (n: number, width: number) => Promise<Buffer[]>,
  width: number,
): Promise<void> {
  const { faults } = context;
  let images: Buffer[];
  try {
    images = await produce(faults.has('n-ignored') ? 1 : grant.n, faults.has('wrong-image-size') ? width + 1 : width);
  } catch (error) {
    grant.refund();
    throw error;
  }
  reply.headers(grant.headers).send({
    created: Math.floor(context.now().getTime() / 1000),
    data: images.map((png) => ({ b64_json: png.toString('base64') })),
  });
}
