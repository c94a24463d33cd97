/**
 * The MCP SDK's ajv validator in the Lambda bundle: absent. The SDK's server builds it only when
 * it is given no `jsonSchemaValidator`, and ours always is given one (shared/mcp/server.ts:
 * NO_ELICITATION), so this class is never constructed; if a server without one were ever added,
 * it fails at once, saying why, rather than at its first elicitation.
 */
export class AjvJsonSchemaValidator {
  constructor() {
    throw new Error('ajv is not in the Lambda bundle: give the MCP Server a jsonSchemaValidator (shared/mcp/server.ts)');
  }
}
