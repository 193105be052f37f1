/**
 * The JSON Schema of `lavs.json` (spec §4), written from the spec's TypeScript definitions.
 * Handlers and view components are told apart by `type` with ajv's `discriminator`, so a bad
 * handler is reported by what it lacks (`must have required property 'command'`) rather than
 * by four failed `oneOf` branches. Unknown fields are allowed: later drafts add some.
 */

const NAME = { type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9_-]*$' } as const;
const STRINGS = { type: 'array', items: { type: 'string', minLength: 1 } } as const;
const STRING_MAP = { type: 'object', additionalProperties: { type: 'string' } } as const;
const SCHEMA = { type: ['object', 'boolean'] } as const;

/** A union told apart by its `type` (ajv's `discriminator`: each branch names its `type` const). */
function tagged<const B extends readonly object[]>(branches: B) {
  return {
    type: 'object',
    properties: { type: { type: 'string' } },
    required: ['type'],
    discriminator: { propertyName: 'type' },
    oneOf: branches,
  } as const;
}

const permissions = {
  type: 'object',
  properties: {
    fileAccess: STRINGS,
    networkAccess: { anyOf: [{ type: 'boolean' }, STRINGS] },
    maxExecutionTime: { type: 'integer', minimum: 1 },
    maxMemory: { type: 'integer', minimum: 1 },
  },
} as const;

const handler = tagged([
  {
    properties: {
      type: { const: 'script' },
      command: { type: 'string', minLength: 1 },
      args: { type: 'array', items: { type: 'string' } },
      input: { enum: ['args', 'stdin', 'env'] },
      cwd: { type: 'string', minLength: 1 },
      timeout: { type: 'integer', minimum: 1 },
      env: STRING_MAP,
    },
    required: ['command'],
  },
  {
    properties: {
      type: { const: 'function' },
      module: { type: 'string', minLength: 1 },
      function: { type: 'string', minLength: 1 },
    },
    required: ['module', 'function'],
  },
  {
    properties: {
      type: { const: 'http' },
      url: { type: 'string', pattern: '^https?://' },
      method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
      headers: STRING_MAP,
    },
    required: ['url', 'method'],
  },
  {
    properties: {
      type: { const: 'mcp' },
      server: {
        anyOf: [
          { type: 'string', minLength: 1 },
          {
            type: 'object',
            properties: {
              command: { type: 'string', minLength: 1 },
              args: { type: 'array', items: { type: 'string' } },
              env: STRING_MAP,
              cwd: { type: 'string', minLength: 1 },
            },
            required: ['command'],
            additionalProperties: false,
          },
        ],
      },
      tool: { type: 'string', minLength: 1 },
    },
    required: ['server', 'tool'],
  },
] as const);

const component = tagged([
  {
    properties: {
      type: { const: 'cdn' },
      url: { type: 'string' },
      exportName: { type: 'string' },
    },
    required: ['url'],
  },
  {
    properties: {
      type: { const: 'npm' },
      package: { type: 'string' },
      version: { type: 'string' },
    },
    required: ['package'],
  },
  { properties: { type: { const: 'local' }, path: { type: 'string' } }, required: ['path'] },
  { properties: { type: { const: 'inline' }, code: { type: 'string' } }, required: ['code'] },
] as const);

/** The manifest schema (draft-07 as ajv 8 reads it). */
export const MANIFEST_SCHEMA = {
  type: 'object',
  required: ['lavs', 'name', 'version', 'endpoints'],
  properties: {
    lavs: { const: '1.0' },
    name: NAME,
    version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+' },
    description: { type: 'string' },
    endpoints: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['id', 'method', 'handler'],
        properties: {
          id: NAME,
          method: { enum: ['query', 'mutation', 'subscription'] },
          description: { type: 'string' },
          handler,
          schema: { type: 'object', properties: { input: SCHEMA, output: SCHEMA } },
          permissions,
        },
      },
    },
    view: {
      type: 'object',
      required: ['component'],
      properties: {
        component,
        fallback: { enum: ['list', 'table', 'json'] },
        icon: { type: 'string' },
        theme: STRING_MAP,
      },
    },
    types: { type: 'object', additionalProperties: SCHEMA },
    permissions,
  },
} as const;
