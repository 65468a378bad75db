// The suite finds the image model as the contract defines it, by the endpoints it offers, never by its
// name or its label: an implementation that names or labels it otherwise gets the same checks.
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/run.ts';
import { useServer } from '../helpers/server.ts';
import { startFaultProxy } from '../mutation/proxy.ts';

const server = useServer();

describe('the image model, found as the contract defines it', () => {
  it('is the model that offers the image endpoints, whatever its name and label', async () => {
    // The listing as another implementation might give it: the image model renamed and labelled otherwise.
    const proxy = await startFaultProxy({
      target: server.baseUrl,
      fault: {
        response: (response, { request }) => {
          if (!request.url.startsWith('/v1/models')) return;
          const listing = JSON.parse(response.body.toString('utf8')) as { models: Array<Record<string, unknown>> };
          for (const model of listing.models) if (model.id === 'image-gen') model.category = 'Pictures';
          response.body = Buffer.from(JSON.stringify(listing));
          delete response.headers['content-length'];
        },
      },
    });
    try {
      const report = await runConformance({ baseUrl: proxy.baseUrl, keys: { ultimate: 'sk-demo-ultimate' }, profile: 'full', only: ['createImage/errors/model-without-endpoint'] });
      expect(report.summary).toMatchObject({ passed: 1, failed: 0, skipped: 0 });
      expect(report.results[0]!.title).toMatch(/naming the image model 'image-gen'/);
    } finally {
      await proxy.close();
    }
  });
});
