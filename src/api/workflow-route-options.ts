/**
 * What every workflow route shares. Authentication runs at onRequest, before the body is
 * read, so a caller without a valid key learns nothing else (contract 1.2: key first).
 * Schemas document the routes; the workflow module validates (its texts, no Ajv coercion,
 * no defaults inserted into configs), and answers are plain JSON.stringify of fixed shapes.
 */
import { Type } from '@sinclair/typebox';
import type { FastifySerializerCompiler } from 'fastify';
import type { AppInstance } from './app-instance.js';
import { passThroughValidatorCompiler } from './plugins/pass-through-validator.js';

export const IdParams = Type.Object({
  id: Type.String({ description: 'A workflow id' }),
});

export const ApiKeyQuery = {
  api_key: Type.Optional(Type.String({ description: 'The account API key (or X-API-Key)' })),
};

const jsonSerializer: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);

export function workflowRouteBase(app: AppInstance) {
  return {
    onRequest: app.authenticate,
    validatorCompiler: passThroughValidatorCompiler,
    serializerCompiler: jsonSerializer,
  };
}

export const workflowTags = ['workflows'];
