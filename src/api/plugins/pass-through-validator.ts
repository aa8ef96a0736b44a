/**
 * A route-level validatorCompiler that accepts everything and changes nothing, so a schema
 * documents the route while the domain's own parser validates it with the contract's texts
 * (Fastify's Ajv would coerce values and insert documented defaults: an inserted
 * `render=false` would override a workflow's saved `render=true`).
 */
import type { FastifySchemaCompiler } from 'fastify';

export const passThroughValidatorCompiler: FastifySchemaCompiler<unknown> = () => () => true;
