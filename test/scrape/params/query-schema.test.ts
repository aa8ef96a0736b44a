import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { passThroughValidatorCompiler } from '../../../src/api/plugins/pass-through-validator.js';
import { isAppError } from '../../../src/errors.js';
import {
  normalizeWorkflowConfig,
  parseScraperRequest,
  SCRAPER_PARAMETERS,
  savedConfigFromWorkflow,
  scraperQuerySchema,
} from '../../../src/scrape/params/index.js';

const saved = savedConfigFromWorkflow(
  normalizeWorkflowConfig({ url: 'https://saved.example/', render: true }),
);

/** A stand-in for the lead's route: the schema documents, parseScraperRequest validates. */
async function buildApp(passThrough: boolean) {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  await app.register(swagger, { openapi: { info: { title: 't', version: '1.0.0' } } });
  app.setErrorHandler((error, _request, reply) => {
    const status = isAppError(error) ? error.status : 500;
    return reply.status(status).send({ error: error instanceof Error ? error.message : 'x' });
  });
  app.get(
    '/api/scraper',
    {
      schema: { querystring: scraperQuerySchema },
      ...(passThrough ? { validatorCompiler: passThroughValidatorCompiler } : {}),
    },
    async (request) => {
      const query = request.query as Record<string, unknown>;
      return parseScraperRequest(query, query.workflow_id ? saved : null);
    },
  );
  await app.ready();
  return app;
}

describe('scraperQuerySchema on a Fastify route with passThroughValidatorCompiler', () => {
  it('leaves unknown parameters to the parser and its exact text', async () => {
    const app = await buildApp(true);
    const reply = await app.inject(
      '/api/scraper?api_key=k&url=https%3A%2F%2Fa.example%2F&Render=1',
    );
    assert.equal(reply.statusCode, 400);
    assert.deepEqual(reply.json(), { error: 'Unknown parameter: Render' });
    await app.close();
  });

  it('leaves repeated parameters and case-insensitive booleans to the parser', async () => {
    const app = await buildApp(true);
    const repeated = await app.inject(
      '/api/scraper?url=https%3A%2F%2Fa.example%2F&render=1&render=0',
    );
    assert.deepEqual(repeated.json(), { error: 'Parameter render must be given only once' });
    const ok = await app.inject('/api/scraper?url=https%3A%2F%2Fa.example%2F&markdown=TRUE');
    assert.equal(ok.json().markdown, true);
    await app.close();
  });

  it('inserts no documented default, so a saved render=true survives', async () => {
    const app = await buildApp(true);
    const reply = await app.inject('/api/scraper?api_key=k&workflow_id=w');
    assert.equal(reply.statusCode, 200);
    assert.equal(reply.json().render, true);
    await app.close();
  });

  it('documents every parameter, with defaults, in the OpenAPI document', async () => {
    const app = await buildApp(true);
    const doc = app.swagger() as {
      paths: Record<
        string,
        {
          get: {
            parameters: {
              name: string;
              in: string;
              schema: { default?: string };
              description?: string;
            }[];
          };
        }
      >;
    };
    const parameters = doc.paths['/api/scraper']?.get.parameters ?? [];
    assert.deepEqual(parameters.map((p) => p.name).sort(), [...SCRAPER_PARAMETERS].sort());
    assert.ok(parameters.every((p) => p.in === 'query' && (p.description ?? '').length > 10));
    const byName = new Map(parameters.map((p) => [p.name, p]));
    assert.equal(byName.get('render')?.schema.default, 'false');
    assert.equal(byName.get('window_width')?.schema.default, '1920');
    assert.equal(byName.get('timeout')?.schema.default, '60000');
    await app.close();
  });
});

describe('why the pass-through validator is needed', () => {
  it("Fastify's default Ajv would insert render=false and override the saved render=true", async () => {
    const app = await buildApp(false);
    const reply = await app.inject('/api/scraper?api_key=k&workflow_id=w');
    assert.equal(reply.json().render, false);
    await app.close();
  });
});
